use super::params::*;
use super::*;
use crate::rng::Rng;
use shakmaty::{CastlingMode, EnPassantMode, fen::Fen};

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
}

fn flipped(p: &Chess) -> Chess {
    let mut setup = p.to_setup(EnPassantMode::Legal);
    setup.mirror();
    setup.position(CastlingMode::Standard).unwrap()
}

/// Positions from seeded random games: varied material, structure and king placement.
fn random_positions(count: usize) -> Vec<Chess> {
    let mut rng = Rng::new(2026);
    let mut out = Vec::new();
    while out.len() < count {
        let mut p = Chess::default();
        for _ in 0..rng.below(120) + 1 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p.play_unchecked(moves[rng.below(moves.len())]);
        }
        out.push(p);
    }
    out
}

fn section(fen: &str, s: Section) -> Score {
    let b = breakdown(&pos(fen));
    let row = Section::ALL.iter().position(|&x| x == s).unwrap();
    b.sections[row][0] - b.sections[row][1]
}

fn count(fen: &str, index: usize) -> i32 {
    trace(&pos(fen)).counts[index]
}

#[test]
fn colour_flip_gives_the_same_score() {
    for p in random_positions(400) {
        assert_eq!(evaluate(&p), evaluate(&flipped(&p)), "{}", Fen::from_position(&p, EnPassantMode::Legal));
    }
}

#[test]
fn pawn_cache_gives_the_same_score() {
    // A small random set evaluated twice through one cache: misses, then hits.
    let mut cache = PawnCache::default();
    let positions = random_positions(300);
    for _ in 0..2 {
        for p in &positions {
            assert_eq!(
                evaluate_cached(p, &mut cache),
                evaluate(p),
                "{}",
                Fen::from_position(p, EnPassantMode::Legal)
            );
        }
    }
}

#[test]
fn breakdown_adds_up_to_the_evaluation() {
    for p in random_positions(50) {
        let white = breakdown(&p).white;
        assert_eq!(evaluate(&p), if p.turn() == Color::White { white } else { -white });
    }
}

#[test]
fn start_position_is_level_but_for_tempo() {
    let w = WEIGHTS[TEMPO];
    assert_eq!(evaluate(&Chess::default()), taper(w, PHASE_MAX, SCALE_NORMAL));
}

#[test]
fn extra_queen_is_winning() {
    assert!(evaluate(&pos("4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1")) > 700);
}

#[test]
fn passed_pawn_is_worth_more_on_the_sixth_rank_than_the_third() {
    let third = "4k3/8/8/8/8/P7/8/4K3 w - - 0 1";
    let sixth = "4k3/8/P7/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(count(third, PASSED + 2), 1);
    assert_eq!(count(sixth, PASSED + 5), 1);
    assert!(section(sixth, Section::Passed).eg > section(third, Section::Passed).eg);
}

#[test]
fn blocked_passed_pawn_loses_its_free_path_bonus() {
    assert_eq!(count("4k3/8/P7/8/8/8/8/4K3 w - - 0 1", PASSED_FREE + 5), 1);
    assert_eq!(count("4k3/n7/P7/8/8/8/8/4K3 w - - 0 1", PASSED_FREE + 5), 0);
}

#[test]
fn king_near_its_passed_pawn_helps_in_the_endgame() {
    let near = "8/8/8/1P6/1K6/8/8/7k w - - 0 1";
    let far = "8/8/8/1P6/8/8/8/K6k w - - 0 1";
    assert!(section(near, Section::Passed).eg > section(far, Section::Passed).eg);
}

#[test]
fn pawn_weaknesses_are_penalised() {
    let isolated = "4k3/8/8/8/8/8/P1P5/4K3 w - - 0 1";
    let doubled = "4k3/8/8/8/8/P7/P7/4K3 w - - 0 1";
    assert_eq!(count(isolated, ISOLATED), 2);
    assert_eq!(count(doubled, DOUBLED), 1);
    assert!(WEIGHTS[ISOLATED].eg < 0 && WEIGHTS[DOUBLED].eg < 0);
    // c3 cannot be supported by b2/d2 (advanced past them) and c4 is attacked by d5.
    let backward = "4k3/8/8/3p4/1P6/2P5/8/4K3 w - - 0 1";
    assert_eq!(count(backward, BACKWARD), 1);
}

#[test]
fn connected_pawns_beat_split_ones() {
    let connected = "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1";
    let split = "4k3/8/8/8/8/8/2P2P2/4K3 w - - 0 1";
    assert_eq!(count(connected, CONNECTED + 1), 2);
    assert!(section(connected, Section::Pawns).eg > section(split, Section::Pawns).eg);
}

#[test]
fn mobility_rewards_free_pieces() {
    let free = "4k3/8/8/8/3B4/8/8/4K3 w - - 0 1";
    let boxed = "4k3/8/8/8/8/8/1P6/B3K3 w - - 0 1";
    assert_eq!(count(free, MOBILITY_BISHOP + 13), 1);
    assert_eq!(count(boxed, MOBILITY_BISHOP), 1);
    assert!(section(free, Section::Mobility).mg > section(boxed, Section::Mobility).mg);
}

#[test]
fn hanging_piece_is_penalised() {
    // The black knight on d5 is attacked by the rook and defended by nothing.
    let hanging = "4k3/8/8/3n4/8/8/8/3RK3 b - - 0 1";
    let defended = "4k3/8/4p3/3n4/8/8/8/3RK3 b - - 0 1";
    assert_eq!(count(hanging, HANGING), 1);
    assert_eq!(count(defended, HANGING), 0);
    assert!(WEIGHTS[HANGING].mg > 0);
}

#[test]
fn pawn_threat_on_a_piece_counts() {
    let fen = "4k3/8/8/3n4/4P3/8/8/4K3 b - - 0 1";
    assert_eq!(count(fen, THREAT_BY_PAWN), 1);
    assert!(WEIGHTS[THREAT_BY_PAWN].mg > 0);
}

#[test]
fn king_shelter_and_open_files() {
    let sheltered = "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1";
    let bare = "6k1/5ppp/8/8/8/8/8/6K1 w - - 0 1";
    assert_eq!(count(sheltered, SHIELD), 0, "both sides have the same shield");
    assert_eq!(trace(&pos(bare)).counts[SHIELD], -3);
    assert_eq!(count(bare, KING_OPEN + 1), 3, "White's three files are half-open");
    assert!(section(sheltered, Section::KingSafety).mg > section(bare, Section::KingSafety).mg);
}

#[test]
fn attacks_on_the_king_zone_count_per_attacker() {
    let fen = "6k1/5ppp/8/6N1/8/8/8/3QK3 w - - 0 1";
    assert_eq!(count(fen, KING_ATTACK), 2, "Ng5 hits f7 and h7");
    assert_eq!(count(fen, KING_ATTACKERS), 1);
}

#[test]
fn bishop_pair_and_open_files() {
    assert_eq!(count("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", BISHOP_PAIR), 1);
    assert_eq!(count("4k3/p7/8/8/8/8/8/R3K3 w - - 0 1", ROOK_OPEN + 1), 1);
    assert_eq!(count("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", ROOK_OPEN), 1);
    assert!(WEIGHTS[BISHOP_PAIR].eg > 0);
}

#[test]
fn drawn_material_evaluates_near_zero() {
    assert!(evaluate(&pos("4k3/8/8/8/8/8/8/2N1K3 w - - 0 1")).abs() < 50);
    assert!(evaluate(&pos("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1")).abs() < 50);
}
