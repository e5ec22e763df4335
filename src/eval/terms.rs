//! The evaluation terms. Each term reports `count` occurrences of weight `index` for one
//! side to a [`Sink`]; the sink decides whether to score, trace or print them.

use super::params::*;
use shakmaty::{Bitboard, Board, Chess, Color, Position, Role, Square, attacks};

/// Receives the terms of an evaluation.
pub trait Sink {
    /// `color` has `count` occurrences of the term whose weight is `WEIGHTS[index]`.
    fn add(&mut self, color: Color, index: usize, count: i32);

    /// Reports both sides' pawn-only terms and returns the passed pawns by colour index;
    /// a sink that only sums may take the sum from a cache instead.
    fn pawn_structure(&mut self, board: &Board) -> [Bitboard; 2]
    where
        Self: Sized,
    {
        pawn_terms(board, self)
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// Squares attacked by all pawns in `pawns` of `color`.
pub fn pawn_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    let p = pawns.0;
    Bitboard(match color {
        Color::White => ((p & !FILE_A) << 7) | ((p & !FILE_H) << 9),
        Color::Black => ((p & !FILE_A) >> 9) | ((p & !FILE_H) >> 7),
    })
}

/// Rank of `sq` counted from `color`'s side (0 = its back rank).
pub fn relative_rank(color: Color, sq: Square) -> usize {
    let rank = sq.to_usize() / 8;
    if color == Color::White { rank } else { 7 - rank }
}

/// The ranks in front of `rank` as seen by `color`.
fn ranks_ahead(color: Color, rank: usize) -> Bitboard {
    Bitboard(match color {
        Color::White if rank < 7 => !0u64 << (8 * (rank + 1)),
        Color::Black => (1u64 << (8 * rank)) - 1,
        Color::White => 0,
    })
}

fn file_of(sq: Square) -> Bitboard {
    Bitboard(FILE_A << (sq.to_usize() % 8))
}

/// Index of a square in a half-board table: ranks from the owner's side, files e-h folded onto d-a.
fn half_square(color: Color, sq: Square) -> usize {
    HALF_SQUARE[color as usize][sq.to_usize()] as usize
}

/// `half_square` by colour index and square, computed once.
const HALF_SQUARE: [[u8; 64]; 2] = {
    let mut table = [[0; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (rank, file) = (sq / 8, sq % 8);
        let folded = if file < 4 { file } else { 7 - file };
        table[Color::White as usize][sq] = (rank * 4 + folded) as u8;
        table[Color::Black as usize][sq] = ((7 - rank) * 4 + folded) as u8;
        sq += 1;
    }
    table
};

/// Index of a non-pawn, non-king role in the four-entry piece groups.
fn piece_slot(role: Role) -> usize {
    role as usize - 2
}

/// What one side attacks, gathered while its pieces are scored.
#[derive(Clone, Copy, Default)]
struct Attacks {
    all: Bitboard,
    minors: Bitboard,
    rooks: Bitboard,
}

/// Reports every term of `pos` to `sink`.
pub fn terms<S: Sink>(pos: &Chess, sink: &mut S) {
    // The portable build counts bits in software; a CPU with `popcnt` gets a copy of the
    // terms compiled to use it (the same arithmetic, one instruction per `count`).
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU supports `popcnt`, as checked just above.
        return unsafe { terms_popcnt(pos, sink) };
    }
    terms_portable(pos, sink)
}

/// [`terms`] compiled for CPUs with the `popcnt` instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn terms_popcnt<S: Sink>(pos: &Chess, sink: &mut S) {
    terms_portable(pos, sink)
}

/// The term walk itself, inlined into both copies.
#[inline(always)]
fn terms_portable<S: Sink>(pos: &Chess, sink: &mut S) {
    let board = pos.board();
    let pawn_att = [
        pawn_attacks(Color::Black, board.pawns() & board.black()),
        pawn_attacks(Color::White, board.pawns() & board.white()),
    ];
    let mut att = [Attacks::default(); 2];
    let passers = sink.pawn_structure(board);
    for color in Color::ALL {
        let us = color as usize;
        att[us].all = pawn_att[us];
        if let Some(king) = board.king_of(color) {
            att[us].all |= attacks::king_attacks(king);
        }
        pieces(board, color, pawn_att[1 - us], sink, &mut att[us]);
        for sq in passers[us] {
            passed(board, color, sq, sink);
        }
        king(board, color, sink);
    }
    for color in Color::ALL {
        threats(board, color, &att, pawn_att[color as usize], sink);
    }
    sink.add(pos.turn(), TEMPO, 1);
}

/// First mobility weight of each piece group (knight, bishop, rook, queen).
const MOBILITY_START: [usize; 4] = [MOBILITY_KNIGHT, MOBILITY_BISHOP, MOBILITY_ROOK, MOBILITY_QUEEN];

/// Material, placement, mobility, king-zone attacks, bishop pair and open files for `color`'s pieces.
#[inline(always)]
fn pieces<S: Sink>(board: &Board, color: Color, their_pawn_att: Bitboard, sink: &mut S, att: &mut Attacks) {
    let ours = board.by_color(color);
    let occupied = board.occupied();
    let safe = !ours & !their_pawn_att;
    let their_zone = board.king_of(!color).map_or(Bitboard::EMPTY, |k| attacks::king_attacks(k).with(k));
    let our_pawns = board.pawns() & ours;
    let mut attackers = 0;
    for (slot, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen].into_iter().enumerate() {
        for sq in ours & board.by_role(role) {
            sink.add(color, MATERIAL + role as usize - 1, 1);
            sink.add(color, PST + (role as usize - 1) * 32 + half_square(color, sq), 1);
            let reach = attacks::attacks(sq, role.of(color), occupied);
            let mobility = (reach & safe).count();
            sink.add(color, MOBILITY_START[slot] + mobility, 1);
            let zone = reach & their_zone;
            if zone.any() {
                attackers += 1;
                add_set(sink, color, KING_ATTACK + slot, zone);
            }
            att.all |= reach;
            match role {
                Role::Knight | Role::Bishop => att.minors |= reach,
                Role::Rook => att.rooks |= reach,
                _ => {}
            }
            if matches!(role, Role::Rook | Role::Queen) {
                let file = file_of(sq);
                let open = if (board.pawns() & file).is_empty() {
                    Some(0)
                } else if (our_pawns & file).is_empty() {
                    Some(1)
                } else {
                    None
                };
                if let Some(kind) = open {
                    sink.add(color, if role == Role::Rook { ROOK_OPEN } else { QUEEN_OPEN } + kind, 1);
                }
            }
        }
    }
    if attackers > 0 {
        sink.add(color, KING_ATTACKERS + attackers.min(8) - 1, 1);
    }
    if (board.bishops() & ours).more_than_one() {
        sink.add(color, BISHOP_PAIR, 1);
    }
}

/// Reports the terms of both sides that depend on the pawns alone; returns the passed pawns
/// by colour index (their bonuses also depend on the kings and pieces).
pub fn pawn_terms<S: Sink>(board: &Board, sink: &mut S) -> [Bitboard; 2] {
    let mut passers = [Bitboard::EMPTY; 2];
    for color in Color::ALL {
        passers[color as usize] = pawns(board, color, sink);
    }
    passers
}

/// Material, placement and structure of `color`'s pawns; returns its passed pawns.
/// Each pawn property is computed for all pawns at once with fills and shifts.
fn pawns<S: Sink>(board: &Board, color: Color, sink: &mut S) -> Bitboard {
    let ours = board.pawns() & board.by_color(color);
    let theirs = board.pawns() & board.by_color(!color);
    let beside = |b: Bitboard| Bitboard(((b.0 << 1) & !FILE_A) | ((b.0 >> 1) & !FILE_H));
    // No own pawn on a neighbouring file.
    let isolated = ours & !beside(file_fill(ours));
    // An own pawn further up the same file.
    let doubled = ours & rear_span(color, ours);
    // Defended by a pawn, or with a pawn beside it.
    let connected = ours & (pawn_attacks(color, ours) | beside(ours));
    // No neighbour level or behind to support its advance, and its stop square is attacked.
    let stop_attacked = shift_back(color, pawn_attacks(!color, theirs));
    let backward = ours & !isolated & !forward_fill(color, beside(ours)) & stop_attacked;
    // No enemy pawn in front on its own or a neighbouring file, and not behind an own pawn.
    let passers = ours & !doubled & !rear_span(color, theirs | beside(theirs));
    sink.add(color, MATERIAL, ours.count() as i32);
    for (index, set) in [(ISOLATED, isolated), (DOUBLED, doubled), (BACKWARD, backward)] {
        add_set(sink, color, index, set);
    }
    for sq in ours {
        sink.add(color, PST + half_square(color, sq), 1);
    }
    for sq in connected {
        sink.add(color, CONNECTED + relative_rank(color, sq), 1);
    }
    passers
}

/// `b` and every square above it (toward rank 8).
fn north_fill(b: Bitboard) -> Bitboard {
    let mut x = b.0;
    x |= x << 8;
    x |= x << 16;
    x |= x << 32;
    Bitboard(x)
}

/// `b` and every square below it (toward rank 1).
fn south_fill(b: Bitboard) -> Bitboard {
    let mut x = b.0;
    x |= x >> 8;
    x |= x >> 16;
    x |= x >> 32;
    Bitboard(x)
}

/// Every file that holds a square of `b`.
fn file_fill(b: Bitboard) -> Bitboard {
    north_fill(b) | south_fill(b)
}

/// `b` and every square in front of it, as `color` moves.
fn forward_fill(color: Color, b: Bitboard) -> Bitboard {
    if color == Color::White { north_fill(b) } else { south_fill(b) }
}

/// `b` moved one rank toward `color`'s own side.
fn shift_back(color: Color, b: Bitboard) -> Bitboard {
    b.shift(if color == Color::White { -8 } else { 8 })
}

/// The squares strictly in front of `b`, as `color` moves.
fn front_span(color: Color, b: Bitboard) -> Bitboard {
    forward_fill(color, b.shift(if color == Color::White { 8 } else { -8 }))
}

/// The squares strictly behind `b`, as `color` moves.
fn rear_span(color: Color, b: Bitboard) -> Bitboard {
    front_span(!color, b)
}

/// A passed pawn of `color` on `sq`: its rank, whether its path is free, and the kings' distances.
#[inline(always)]
fn passed<S: Sink>(board: &Board, color: Color, sq: Square, sink: &mut S) {
    let rank = relative_rank(color, sq);
    let path = front_span(color, Bitboard::from_square(sq));
    sink.add(color, PASSED + rank, 1);
    if (path & board.occupied()).is_empty() {
        sink.add(color, PASSED_FREE + rank, 1);
    }
    let Some(stop) =
        (path & Bitboard::from_square(sq).shift(if color == Color::White { 8 } else { -8 })).first()
    else {
        return;
    };
    if let Some(k) = board.king_of(color) {
        sink.add(color, PASSED_OWN_KING + rank, k.distance(stop) as i32);
    }
    if let Some(k) = board.king_of(!color) {
        sink.add(color, PASSED_THEIR_KING + rank, k.distance(stop) as i32);
    }
}

/// Placement of `color`'s king, its pawn shield, the enemy pawn storm and open files beside it.
#[inline(always)]
fn king<S: Sink>(board: &Board, color: Color, sink: &mut S) {
    let Some(k) = board.king_of(color) else {
        return;
    };
    sink.add(color, PST + 5 * 32 + half_square(color, k), 1);
    let ours = board.pawns() & board.by_color(color);
    let theirs = board.pawns() & board.by_color(!color);
    let ahead = ranks_ahead(color, k.to_usize() / 8);
    let own_rank = relative_rank(color, k);
    let nearest = |pawns: Bitboard| if color == Color::White { pawns.first() } else { pawns.last() };
    for file in files_around(k) {
        if let Some(p) = nearest(ours & file & ahead) {
            let distance = relative_rank(color, p) - own_rank;
            if distance <= 2 {
                sink.add(color, SHIELD + distance - 1, 1);
            }
        }
        if let Some(p) = nearest(theirs & file & ahead) {
            let distance = relative_rank(color, p) - own_rank;
            if distance <= 4 {
                sink.add(color, STORM + distance - 1, 1);
            }
        }
        if (board.pawns() & file).is_empty() {
            sink.add(color, KING_OPEN, 1);
        } else if (ours & file).is_empty() {
            sink.add(color, KING_OPEN + 1, 1);
        }
    }
}

/// The king's file and the files beside it, one bitboard each.
fn files_around(k: Square) -> impl Iterator<Item = Bitboard> {
    let file = k.to_usize() % 8;
    (file.saturating_sub(1)..=(file + 1).min(7)).map(|f| Bitboard(FILE_A << f))
}

/// `color`'s threats: enemy pieces attacked by lesser pieces, and enemy pieces left hanging.
#[inline(always)]
fn threats<S: Sink>(board: &Board, color: Color, att: &[Attacks; 2], pawn_att: Bitboard, sink: &mut S) {
    let theirs = board.by_color(!color);
    let ours = &att[color as usize];
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        add_set(sink, color, THREAT_BY_PAWN + piece_slot(role), theirs & board.by_role(role) & pawn_att);
    }
    for (i, targets) in [board.rooks(), board.queens()].into_iter().enumerate() {
        add_set(sink, color, THREAT_BY_MINOR + i, theirs & targets & ours.minors);
    }
    add_set(sink, color, THREAT_BY_ROOK, theirs & board.queens() & ours.rooks);
    let pieces = theirs & !board.pawns() & !board.kings();
    add_set(sink, color, HANGING, pieces & ours.all & !att[1 - color as usize].all);
}

/// Reports one occurrence of term `index` per square of `set` (nothing for an empty set).
#[inline(always)]
fn add_set<S: Sink>(sink: &mut S, color: Color, index: usize, set: Bitboard) {
    if set.any() {
        sink.add(color, index, set.count() as i32);
    }
}
