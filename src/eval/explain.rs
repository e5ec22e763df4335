//! What `eval` prints: the network's score and, as Stockfish shows it, each piece's share:
//! the score with the piece on the board less the score with it taken off.

use super::{Accumulator, Network};
use shakmaty::{Board, Chess, Color, File, Position, Rank, Role, Square};
use std::fmt::Write as _;

/// The White-side evaluation of `board` with White (or `turn`) to move.
fn white_score(net: &Network, board: &Board, turn: Color) -> i32 {
    let bucket = super::output_bucket(board.occupied().count());
    let score = net.evaluate(&Accumulator::from_board(net, board), turn, bucket);
    if turn == Color::White { score } else { -score }
}

/// Each piece's share of the evaluation from White's side, in centipawns (kings have none:
/// a board without one is no position).
pub fn piece_shares(net: &Network, pos: &Chess) -> Vec<(Square, i32)> {
    let whole = white_score(net, pos.board(), pos.turn());
    let mut shares = Vec::new();
    for (square, piece) in pos.board() {
        if piece.role == Role::King {
            continue;
        }
        let mut without = pos.board().clone();
        without.discard_piece_at(square);
        shares.push((square, whole - white_score(net, &without, pos.turn())));
    }
    shares
}

/// The board with each piece's share in pawns under it, then the evaluation.
pub fn explain(net: &Network, pos: &Chess) -> String {
    let shares = piece_shares(net, pos);
    let mut out = String::from("NNUE piece values (White's side, pawns):\n");
    let line = format!("+{}\n", "-------+".repeat(8));
    out.push_str(&line);
    for rank in Rank::ALL.into_iter().rev() {
        let (mut pieces, mut values) = (String::from("|"), String::from("|"));
        for file in File::ALL {
            let square = Square::from_coords(file, rank);
            let piece = pos.board().piece_at(square).map_or(' ', |p| p.char());
            let _ = write!(pieces, "   {piece}   |");
            match shares.iter().find(|(sq, _)| *sq == square) {
                Some((_, cp)) => {
                    let _ = write!(values, " {:+5.2} |", f64::from(*cp) / 100.0);
                }
                None => values.push_str("       |"),
            }
        }
        let _ = writeln!(out, "{pieces}\n{values}\n{line}", values = values);
        out.pop();
    }
    let white = white_score(net, pos.board(), pos.turn());
    let _ = write!(out, "\nNNUE evaluation: {:+.2} (White's side)", f64::from(white) / 100.0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_and_the_board_are_shown() {
        let net = Network::embedded();
        let pos = Chess::default();
        let shares = piece_shares(&net, &pos);
        assert_eq!(shares.len(), 30, "every piece but the kings");
        let queen = shares.iter().find(|(sq, _)| *sq == Square::D1).unwrap().1;
        let pawn = shares.iter().find(|(sq, _)| *sq == Square::A2).unwrap().1;
        assert!(queen > pawn && queen > 300, "queen {queen}, pawn {pawn}");
        let text = explain(&net, &pos);
        assert!(text.contains("NNUE evaluation:") && text.matches('Q').count() == 1, "{text}");
        assert_eq!(text.lines().filter(|l| l.starts_with("+---")).count(), 9, "{text}");
    }
}
