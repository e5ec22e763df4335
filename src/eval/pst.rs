//! Material and piece-square tables, middlegame and endgame, from White's side.
//!
//! The tables are built by small formulas (centralisation, advancement, king shelter)
//! rather than typed out: they are a plain starting point until the tuner replaces them.

/// A middlegame/endgame pair of centipawn values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Value when all pieces are on the board.
    pub mg: i32,
    /// Value when only kings and pawns are left.
    pub eg: i32,
}

impl Score {
    /// Makes a pair from its two halves.
    pub const fn new(mg: i32, eg: i32) -> Self {
        Score { mg, eg }
    }
}

impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, other: Score) {
        self.mg += other.mg;
        self.eg += other.eg;
    }
}

impl std::ops::SubAssign for Score {
    fn sub_assign(&mut self, other: Score) {
        self.mg -= other.mg;
        self.eg -= other.eg;
    }
}

/// Material values indexed by role (pawn, knight, bishop, rook, queen, king).
pub const MATERIAL: [Score; 6] = [
    Score::new(90, 110),
    Score::new(320, 300),
    Score::new(330, 320),
    Score::new(470, 540),
    Score::new(960, 1010),
    Score::new(0, 0),
];

/// Phase weight of each role; the full board has `PHASE_MAX`.
pub const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// Phase of the starting position: 4 minors, 4 rooks and 2 queens.
pub const PHASE_MAX: i32 = 24;

/// Piece-square values (material included), `[role][square]` for a white piece.
pub static TABLE: [[Score; 64]; 6] = build();

const fn centre(file: i32, rank: i32) -> i32 {
    let df = if file < 4 { 3 - file } else { file - 4 };
    let dr = if rank < 4 { 3 - rank } else { rank - 4 };
    3 - if df > dr { df } else { dr }
}

const fn pawn(file: i32, rank: i32) -> Score {
    if rank == 0 || rank == 7 {
        return Score::new(0, 0);
    }
    let central = file == 3 || file == 4;
    let mg = (rank - 1) * 4 + if central && rank >= 3 { 12 } else { 0 };
    let eg = (rank - 1) * (rank - 1) * 3;
    Score::new(mg, eg)
}

const fn king(file: i32, rank: i32) -> Score {
    const SHELTER: [i32; 8] = [20, 30, 10, -5, -5, 10, 30, 20];
    let mg = match rank {
        0 => SHELTER[file as usize],
        1 => SHELTER[file as usize] / 2 - 10,
        _ => -20 - 10 * rank,
    };
    Score::new(mg, centre(file, rank) * 12 - 20)
}

const fn square_value(role: usize, file: i32, rank: i32) -> Score {
    let c = centre(file, rank);
    match role {
        0 => pawn(file, rank),
        1 => Score::new(c * 10 - 20, c * 8 - 15),
        2 => Score::new(c * 5 - 5, c * 5 - 8),
        3 => Score::new(
            if rank == 6 { 15 } else { 0 } + if file == 3 || file == 4 { 5 } else { 0 },
            if rank == 6 { 10 } else { 0 },
        ),
        4 => Score::new(c * 3 - 5, c * 6 - 10),
        _ => king(file, rank),
    }
}

const fn build() -> [[Score; 64]; 6] {
    let mut table = [[Score::new(0, 0); 64]; 6];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            let s = square_value(role, (sq % 8) as i32, (sq / 8) as i32);
            table[role][sq] = Score::new(MATERIAL[role].mg + s.mg, MATERIAL[role].eg + s.eg);
            sq += 1;
        }
        role += 1;
    }
    table
}
