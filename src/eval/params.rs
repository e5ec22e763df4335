//! Where each evaluation weight lives in the weight vector, and what it is called.
//!
//! The evaluation is linear in its weights: every term adds `count × WEIGHTS[index]` for one
//! side. This layout is shared by the evaluation, the `eval` breakdown and the tuner.

/// A named run of consecutive weights.
#[derive(Clone, Copy, Debug)]
pub struct Group {
    /// Short name, used in the weights file and the `eval` breakdown.
    pub name: &'static str,
    /// Index of the group's first weight.
    pub start: usize,
    /// Number of weights in the group.
    pub len: usize,
    /// The `eval` breakdown line the group is added to.
    pub section: Section,
}

/// The lines of the `eval` breakdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// Piece values.
    Material,
    /// Piece-square tables.
    Placement,
    /// Safe squares per piece.
    Mobility,
    /// Isolated, doubled, backward and connected pawns.
    Pawns,
    /// Passed pawns.
    Passed,
    /// Attacks on the king zone, shelter and storm, open files by the king.
    KingSafety,
    /// Bishop pair, rooks and queens on open files.
    Pieces,
    /// Pieces attacked by lesser ones, hanging pieces.
    Threats,
    /// The side to move's bonus.
    Tempo,
}

impl Section {
    /// Every section, in the order the breakdown prints them.
    pub const ALL: [Section; 9] = [
        Section::Material,
        Section::Placement,
        Section::Mobility,
        Section::Pawns,
        Section::Passed,
        Section::KingSafety,
        Section::Pieces,
        Section::Threats,
        Section::Tempo,
    ];

    /// The name printed in the breakdown.
    pub fn name(self) -> &'static str {
        match self {
            Section::Material => "Material",
            Section::Placement => "Placement",
            Section::Mobility => "Mobility",
            Section::Pawns => "Pawns",
            Section::Passed => "Passed pawns",
            Section::KingSafety => "King safety",
            Section::Pieces => "Pieces",
            Section::Threats => "Threats",
            Section::Tempo => "Tempo",
        }
    }
}

macro_rules! layout {
    ($($konst:ident = $name:literal, $len:expr, $section:ident;)*) => {
        layout!(@consts 0usize; $($konst, $len;)*);
        /// Every group, in weight order.
        pub const GROUPS: &[Group] = &[$(Group { name: $name, start: $konst, len: $len, section: Section::$section },)*];
    };
    (@consts $at:expr; $konst:ident, $len:expr; $($rest:tt)*) => {
        #[doc = concat!("First weight of the `", stringify!($konst), "` group.")]
        pub const $konst: usize = $at;
        layout!(@consts $at + $len; $($rest)*);
    };
    (@consts $at:expr;) => {
        /// Number of weights.
        pub const COUNT: usize = $at;
    };
}

layout! {
    MATERIAL = "material", 5, Material;
    PST = "pst", 6 * 32, Placement;
    MOBILITY_KNIGHT = "mobility_knight", 9, Mobility;
    MOBILITY_BISHOP = "mobility_bishop", 14, Mobility;
    MOBILITY_ROOK = "mobility_rook", 15, Mobility;
    MOBILITY_QUEEN = "mobility_queen", 28, Mobility;
    ISOLATED = "isolated", 1, Pawns;
    DOUBLED = "doubled", 1, Pawns;
    BACKWARD = "backward", 1, Pawns;
    CONNECTED = "connected", 8, Pawns;
    PASSED = "passed", 8, Passed;
    PASSED_FREE = "passed_free", 8, Passed;
    PASSED_OWN_KING = "passed_own_king", 8, Passed;
    PASSED_THEIR_KING = "passed_their_king", 8, Passed;
    KING_ATTACK = "king_attack", 4, KingSafety;
    KING_ATTACKERS = "king_attackers", 8, KingSafety;
    SHIELD = "shield", 2, KingSafety;
    STORM = "storm", 4, KingSafety;
    KING_OPEN = "king_open", 2, KingSafety;
    BISHOP_PAIR = "bishop_pair", 1, Pieces;
    ROOK_OPEN = "rook_open", 2, Pieces;
    QUEEN_OPEN = "queen_open", 2, Pieces;
    THREAT_BY_PAWN = "threat_by_pawn", 4, Threats;
    THREAT_BY_MINOR = "threat_by_minor", 2, Threats;
    THREAT_BY_ROOK = "threat_by_rook", 1, Threats;
    HANGING = "hanging", 1, Threats;
    TEMPO = "tempo", 1, Tempo;
}

/// The group a weight belongs to.
pub fn group_of(index: usize) -> &'static Group {
    GROUPS.iter().find(|g| (g.start..g.start + g.len).contains(&index)).expect("weight index in range")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_weights() {
        let mut next = 0;
        for g in GROUPS {
            assert_eq!(g.start, next, "{}", g.name);
            next += g.len;
        }
        assert_eq!(next, COUNT);
        assert_eq!(group_of(TEMPO).name, "tempo");
        assert_eq!(group_of(PST + 5 * 32 + 31).name, "pst");
    }
}
