//! The network's invariants: incremental updates equal a refresh, colours are symmetric,
//! net files round-trip and bad ones are refused.

use super::network::{HEADER_LEN, fnv1a};
use super::*;
use crate::rng::Rng;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, fen::Fen};

/// A network of random weights within the trainer's bounds.
fn random_net(seed: u64) -> Network {
    random_net_of(seed, 1)
}

/// [`random_net`] reading its inputs in four king buckets, each with its own weights.
fn random_bucketed_net(seed: u64) -> Network {
    random_net_of(seed, KING_BUCKETS)
}

/// A network of random weights in `king_buckets` king buckets.
fn random_net_of(seed: u64, king_buckets: usize) -> Network {
    let mut rng = Rng::new(seed);
    let mut weight = |bound: u64| (rng.next_u64() % (2 * bound + 1)) as i16 - bound as i16;
    let mut feature_weights: Columns = zeroed();
    feature_weights[..king_buckets * INPUTS].iter_mut().flatten().for_each(|w| *w = weight(500));
    let mut feature_bias = [0i16; HIDDEN];
    feature_bias.iter_mut().for_each(|w| *w = weight(200));
    let mut output_weights = [[0i16; 2 * HIDDEN]; OUTPUT_BUCKETS];
    output_weights.iter_mut().flatten().for_each(|w| *w = weight(127));
    let mut output_bias = [0i32; OUTPUT_BUCKETS];
    output_bias.iter_mut().for_each(|b| *b = i32::from(weight(2000)));
    Network { feature_weights, king_buckets, feature_bias, output_weights, output_bias, scale: 150 }
}

/// The version 1 file of `net`'s first output layer (the format before output buckets).
fn version_one_bytes(net: &Network) -> Vec<u8> {
    let mut out = net.to_bytes()[..HEADER_LEN].to_vec();
    out[4] = 1;
    let columns = net.feature_weights[..net.king_buckets * INPUTS].iter().flatten();
    let words = columns.chain(&net.feature_bias).chain(&net.output_weights[0]);
    words.for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
    out.extend_from_slice(&net.output_bias[0].to_le_bytes());
    let hash = fnv1a(&out);
    out.extend_from_slice(&hash.to_le_bytes());
    out
}

fn position(fen: &str, mode: CastlingMode) -> Chess {
    fen.parse::<Fen>().unwrap().into_position(mode).unwrap()
}

/// Special moves first when there are any (so every kind is met), else a random move.
fn pick(moves: &[Move], rng: &mut Rng) -> Move {
    let special: Vec<Move> =
        moves.iter().copied().filter(|m| m.is_promotion() || m.is_en_passant() || m.is_castle()).collect();
    if !special.is_empty() && rng.below(2) == 0 {
        return special[rng.below(special.len())];
    }
    moves[rng.below(moves.len())]
}

#[test]
fn incremental_updates_equal_a_refresh_along_random_games() {
    for net in [random_net(1), random_bucketed_net(1)] {
        incremental_updates_equal_a_refresh(&net);
    }
}

/// Plays random games from several starts, each move updating the accumulator (or, for a
/// king entering another bucket, refreshing it), and checks it against a refresh.
fn incremental_updates_equal_a_refresh(net: &Network) {
    let starts = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CastlingMode::Standard),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", CastlingMode::Standard),
        ("8/P1k5/8/8/8/8/1p4K1/8 w - - 0 1", CastlingMode::Standard),
        ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", CastlingMode::Chess960),
        ("2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", CastlingMode::Chess960),
        ("qrkbrnbn/pppppppp/8/8/8/8/PPPPPPPP/QRKBRNBN w EBeb - 0 1", CastlingMode::Chess960),
    ];
    let mut rng = Rng::new(7);
    let (mut captures, mut promotions, mut en_passant, mut castles, mut castles960) = (0, 0, 0, 0, 0);
    let mut crossings = 0;
    for game in 0..300 {
        let (fen, mode) = starts[game % starts.len()];
        let mut pos = position(fen, mode);
        let mut acc = Accumulator::refresh(net, &pos);
        for _ in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = pick(&moves, &mut rng);
            captures += usize::from(mv.is_capture());
            promotions += usize::from(mv.is_promotion());
            en_passant += usize::from(mv.is_en_passant());
            castles += usize::from(mv.is_castle() && mode == CastlingMode::Standard);
            castles960 += usize::from(mv.is_castle() && mode == CastlingMode::Chess960);
            let change = changes(pos.turn(), mv);
            let (parent, buckets) = (acc, king_buckets(net.king_buckets, pos.board()));
            pos.play_unchecked(mv);
            if king_buckets(net.king_buckets, pos.board()) == buckets {
                acc.update_from(&parent, net, &change, buckets);
            } else {
                acc = Accumulator::refresh(net, &pos);
                crossings += 1;
            }
            let fen = Fen::from_position(&pos, EnPassantMode::Legal);
            assert_eq!(acc, Accumulator::refresh(net, &pos), "after {mv:?}, at {fen}");
        }
    }
    for (kind, count) in [
        ("captures", captures),
        ("promotions", promotions),
        ("en passant", en_passant),
        ("castles", castles),
        ("Chess960 castles", castles960),
    ] {
        assert!(count >= 20, "{count} {kind}");
    }
    let expected = if net.king_buckets == 1 { 0..1 } else { 20..usize::MAX };
    assert!(expected.contains(&crossings), "{crossings} king bucket changes");
}

#[test]
fn a_position_and_its_colour_flipped_mirror_evaluate_the_same() {
    for net in [random_net(2), random_bucketed_net(2)] {
        colour_flipped_mirrors_evaluate_the_same(&net);
    }
}

fn colour_flipped_mirrors_evaluate_the_same(net: &Network) {
    let mut rng = Rng::new(3);
    let mut pos = Chess::default();
    for _ in 0..200 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            pos = Chess::default();
            continue;
        }
        pos.play_unchecked(moves[rng.below(moves.len())]);
        // The board flipped top to bottom with the colours swapped, the other side to move.
        let mut setup = shakmaty::Setup::empty();
        setup.board = pos.board().clone();
        setup.board.mirror();
        setup.turn = !pos.turn();
        let mirror: Chess = setup.position(CastlingMode::Standard).unwrap();
        assert_eq!(net.evaluate_position(&pos), net.evaluate_position(&mirror));
    }
}

#[test]
fn the_embedded_net_reads_and_net_files_round_trip() {
    let embedded = Network::embedded();
    assert_eq!(Network::from_bytes(&embedded.to_bytes()).unwrap(), embedded);
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/eval/default.nnue");
    assert_eq!(embedded.to_bytes(), std::fs::read(file).unwrap(), "the same bytes as the file");
    for kings in [1, 2, KING_BUCKETS] {
        let net = random_net_of(4, kings);
        let bytes = net.to_bytes();
        assert_eq!(u16::from_le_bytes([bytes[6], bytes[7]]), (kings * INPUTS) as u16);
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        let start = Chess::default();
        assert_eq!(
            net.evaluate_position(&start),
            Network::from_bytes(&bytes).unwrap().evaluate_position(&start)
        );
    }
    let _ = Color::White;
}

#[test]
fn the_output_bucket_counts_the_pieces_on_the_board() {
    let expected = [(2, 0), (5, 0), (6, 1), (9, 1), (10, 2), (17, 3), (25, 5), (29, 6), (30, 7), (32, 7)];
    for (pieces, bucket) in expected {
        assert_eq!(output_bucket(pieces), bucket, "{pieces} pieces");
    }
    // Along random games the network's evaluation goes through the bucket of the piece count.
    let net = random_net(8);
    let mut rng = Rng::new(8);
    for _ in 0..20 {
        let mut pos = Chess::default();
        for _ in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let count = pos.board().occupied().count();
            let acc = Accumulator::refresh(&net, &pos);
            let by_rule = net.evaluate(&acc, pos.turn(), ((count - 2) / 4).min(7));
            assert_eq!(evaluate(&net, &pos, || &acc), mop_up_score(&pos).unwrap_or(by_rule));
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
}

#[test]
fn a_version_one_net_loads_with_its_one_output_layer_in_every_bucket() {
    let mut net = random_net(9);
    net.output_weights = [net.output_weights[0]; OUTPUT_BUCKETS];
    net.output_bias = [net.output_bias[0]; OUTPUT_BUCKETS];
    let old = version_one_bytes(&net);
    assert_eq!(net.to_bytes(), old, "one layer in every bucket is written as version 1");
    assert_eq!(Network::from_bytes(&old).unwrap(), net);
    let truncated = Network::from_bytes(&old[..old.len() - 1]).unwrap_err();
    assert!(matches!(truncated, NetError::Length { expected, .. } if expected == old.len()), "{truncated}");
}

#[test]
fn a_narrower_net_loads_with_its_missing_neurons_zero() {
    let net = random_net(11);
    let width = HIDDEN / 2;
    let mut narrow = net.clone();
    narrow.feature_weights.iter_mut().for_each(|column| column[width..].fill(0));
    narrow.feature_bias[width..].fill(0);
    for bucket in &mut narrow.output_weights {
        bucket[width..HIDDEN].fill(0);
        bucket[HIDDEN + width..].fill(0);
    }
    let bytes = net.to_bytes_of_width(width);
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), width as u16);
    assert_eq!(Network::from_bytes(&bytes).unwrap(), narrow);
    assert_eq!(Network::from_bytes(&narrow.to_bytes_of_width(width)).unwrap(), narrow, "round trip");
    let truncated = Network::from_bytes(&bytes[..bytes.len() - 2]).unwrap_err();
    assert!(matches!(truncated, NetError::Length { expected, .. } if expected == bytes.len()), "{truncated}");
}

#[test]
fn bad_net_files_are_refused_with_a_reason() {
    let bytes = random_net(5).to_bytes();
    let error = |bytes: &[u8]| Network::from_bytes(bytes).unwrap_err();
    let truncated = error(&bytes[..bytes.len() - 100]);
    let expected = bytes.len();
    assert!(
        matches!(truncated, NetError::Length { len, expected: e } if len == expected - 100 && e == expected),
        "{truncated}"
    );
    assert!(truncated.to_string().contains("truncated"));
    let longer = error(&[&bytes[..], &[0; 10]].concat());
    assert!(longer.to_string().contains("bytes after the net"), "{longer}");
    assert!(matches!(error(&bytes[..3]), NetError::BadMagic));
    assert!(matches!(error(b"not a net at all, just text"), NetError::BadMagic));
    let mut shape = bytes.clone();
    let wider = 2 * HIDDEN as u16;
    shape[8..10].copy_from_slice(&wider.to_le_bytes());
    assert!(matches!(error(&shape), NetError::Shape { hidden, .. } if hidden == wider), "{}", error(&shape));
    for inputs in [3 * INPUTS, 8 * INPUTS, INPUTS + 1] {
        let mut shape = bytes.clone();
        shape[6..8].copy_from_slice(&(inputs as u16).to_le_bytes());
        assert!(matches!(error(&shape), NetError::Shape { .. }), "{inputs} inputs: {}", error(&shape));
    }
    let mut corrupt = bytes.clone();
    corrupt[HEADER_LEN + 1000] ^= 0x40;
    assert!(matches!(error(&corrupt), NetError::Checksum));
    let mut wild = random_net(5);
    wild.output_weights[3][7] = i16::MAX;
    assert!(matches!(error(&wild.to_bytes()), NetError::OutputWeights));
    wild.output_weights[3][7] = i16::MIN;
    assert!(matches!(error(&wild.to_bytes()), NetError::OutputWeights));
    let mut overflowing = random_net(5);
    overflowing.feature_weights[100][17] = 1_100;
    assert!(matches!(error(&overflowing.to_bytes()), NetError::FeatureWeights(17)));
    let mut version = bytes;
    version[4] = 9;
    assert!(matches!(error(&version), NetError::Version(9)));
}

#[test]
fn only_a_regular_file_of_at_most_a_net_s_length_is_read() {
    let dir = std::env::temp_dir().join(format!("principia-net-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("net.nnue");
    // The largest net this build reads: four king buckets.
    let mut bytes = random_bucketed_net(6).to_bytes();
    std::fs::write(&file, &bytes).unwrap();
    assert_eq!(Network::load(&file).unwrap(), random_bucketed_net(6));
    bytes.push(0);
    std::fs::write(&file, &bytes).unwrap();
    let refused = |path: &std::path::Path| Network::load(path).unwrap_err().error;
    assert!(matches!(refused(&file), NetError::TooLarge));
    bytes.resize(100 * bytes.len(), 0);
    std::fs::write(&file, &bytes).unwrap();
    assert!(matches!(refused(&file), NetError::TooLarge));
    // A larger net of another shape is named by its header, not only its length.
    bytes[8] = bytes[8].wrapping_add(1);
    std::fs::write(&file, &bytes).unwrap();
    assert!(matches!(refused(&file), NetError::Shape { .. }), "{:?}", refused(&file));
    assert!(matches!(refused(&dir), NetError::NotAFile));
    assert!(matches!(refused(&dir.join("missing.nnue")), NetError::Unreadable(_)));
    #[cfg(unix)]
    assert!(matches!(refused(std::path::Path::new("/dev/zero")), NetError::NotAFile));
    let error = Network::load(&dir).unwrap_err();
    assert_eq!(error.to_string(), format!("{}: not a regular file", dir.display()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_net_s_evaluation_stays_below_the_tablebase_scores_whatever_its_scale() {
    let mut net = random_net(8);
    net.scale = i32::from(u16::MAX);
    net.output_bias = [i32::MAX / 2; OUTPUT_BUCKETS];
    let net = Network::from_bytes(&net.to_bytes()).unwrap();
    let start = Chess::default();
    assert_eq!(net.evaluate_position(&start), crate::score::TB_WIN_BOUND - 1);
}
