//! Compressed copies of bodies made again and again that change little from one making to the next
//! (the status answers, every round of checks: a timestamp and the components' figures change, the
//! operators' notices in them do not). A body is cut into pieces where its content says (a rolling
//! hash over its last bytes, so an edit moves no other piece's edges), each piece is compressed on
//! its own (a raw Deflate run ending on a byte, a Brotli stream made to be concatenated) and kept,
//! and a body's gzip and Brotli copies are its pieces' joined: a piece seen in the last making costs
//! a lookup. A body made before costs a lookup too (its copies and tags are kept whole). The copies
//! decode to the body as [`Precomputed::new`]'s do; they differ in bytes (no reference crosses a
//! piece's edge, no Brotli dictionary), a few per cent larger on text.

use std::collections::HashMap;

use axum::body::Bytes;
use brotli::concat::{BroCatli, BroCatliResult};
use flate2::{Compression, FlushCompress};

use super::{etag, tag_of, Compress, Encoded, Precomputed};

/// Pieces are cut where the rolling hash's top bits are zero (one byte in 2^12: about 5 KB apart
/// with the minimum), never shorter than `MIN_PIECE` nor longer than `MAX_PIECE`: small enough that
/// a series of points whose newest changed compresses little again, large enough to compress well.
const CUT_BITS: u32 = 12;
const MIN_PIECE: usize = 1024;
const MAX_PIECE: usize = 32 * 1024;
/// Brotli's window for every piece (the concatenation keeps the first stream's).
const BROTLI_WINDOW: u8 = 22;

/// The rolling hash's value of each byte (a fixed pseudo-random table: the cuts of a body are the
/// same in every process).
const GEAR: [u64; 256] = gear();

const fn gear() -> [u64; 256] {
    let mut table = [0u64; 256];
    let mut state: u64 = 0;
    let mut i = 0;
    while i < 256 {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        table[i] = z ^ (z >> 31);
        i += 1;
    }
    table
}

/// `body` cut into pieces by its content: each byte's hash covers the 64 bytes before it.
pub fn pieces(body: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::with_capacity(body.len() / (1 << CUT_BITS) + 1);
    let (mut start, mut hash) = (0, 0u64);
    for (at, byte) in body.iter().enumerate() {
        hash = (hash << 1).wrapping_add(GEAR[*byte as usize]);
        let len = at + 1 - start;
        if (len >= MIN_PIECE && hash >> (64 - CUT_BITS) == 0) || len >= MAX_PIECE {
            out.push(&body[start..=at]);
            start = at + 1;
            hash = 0;
        }
    }
    if start < body.len() {
        out.push(&body[start..]);
    }
    out
}

/// One piece's compressed forms.
#[derive(Debug)]
struct Piece {
    /// Raw Deflate blocks, none final, ending on a byte boundary (a sync flush).
    deflate: Vec<u8>,
    /// A Brotli stream that can be concatenated after another.
    brotli: Vec<u8>,
}

/// What was made this time and the time before, kept for the next.
#[derive(Debug, Default)]
pub struct Reuse {
    pieces: HashMap<Box<[u8]>, Piece>,
    last_pieces: HashMap<Box<[u8]>, Piece>,
    bodies: HashMap<Bytes, Precomputed>,
    last_bodies: HashMap<Bytes, Precomputed>,
    /// Bytes of pieces compressed since [`Self::next_round`] (the rest were reused).
    pub compressed: usize,
    /// Bytes of bodies made since [`Self::next_round`], compressed or reused.
    pub made: usize,
}

impl Reuse {
    /// Forgets what was made before the last round: only what the round just made is kept.
    pub fn next_round(&mut self) {
        self.last_pieces = std::mem::take(&mut self.pieces);
        self.last_bodies = std::mem::take(&mut self.bodies);
        self.compressed = 0;
        self.made = 0;
    }

    /// [`Precomputed::new`] of `body`, from what this or the last round made where it can.
    pub fn precomputed(&mut self, body: impl Into<Bytes>, compress: Compress) -> Precomputed {
        let body = body.into();
        self.made += body.len();
        if let Some(made) = self.bodies.get(&body) {
            return made.clone();
        }
        if let Some((body, made)) = self.last_bodies.remove_entry(&body) {
            // Its pieces are kept too, for the next body that differs from it in a few.
            if body.len() >= compress.from_bytes {
                for piece in pieces(&body) {
                    if let Some(kept) = self.last_pieces.remove(piece) {
                        self.pieces.insert(piece.into(), kept);
                    }
                }
            }
            self.bodies.insert(body, made.clone());
            return made;
        }
        let made = if body.len() < compress.from_bytes {
            Precomputed::new(body.clone(), compress)
        } else {
            self.joined(body.clone(), compress)
        };
        self.bodies.insert(body, made.clone());
        made
    }

    /// `body` with copies joined from its pieces'.
    fn joined(&mut self, body: Bytes, compress: Compress) -> Precomputed {
        let tag = tag_of(&body);
        let cut = pieces(&body);
        let mut deflate = Vec::with_capacity(body.len() / 2);
        // The gzip header: no name, no time, unknown system (RFC 1952).
        deflate.extend_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
        let mut catli = BroCatli::new_with_window_size(BROTLI_WINDOW);
        let mut brotli = vec![0; body.len() / 2 + 64];
        let mut brotli_len = 0;
        let mut joined_brotli = true;
        for piece in cut {
            let made = self.piece(piece, compress.brotli_quality);
            deflate.extend_from_slice(&made.deflate);
            catli.new_brotli_file();
            joined_brotli &= concatenate(&mut catli, &made.brotli, &mut brotli, &mut brotli_len);
        }
        // The last block: empty, final, fixed codes.
        deflate.extend_from_slice(&[0x03, 0x00]);
        let mut crc = flate2::Crc::new();
        crc.update(&body);
        deflate.extend_from_slice(&crc.sum().to_le_bytes());
        deflate.extend_from_slice(&(body.len() as u32).to_le_bytes());
        joined_brotli &= finish(&mut catli, &mut brotli, &mut brotli_len);
        brotli.truncate(brotli_len);
        let copy = |suffix: &str, bytes: Vec<u8>| Encoded {
            body: Bytes::from(bytes),
            etag: etag(&tag, suffix),
        };
        Precomputed {
            gzip: Some(copy("-gz", deflate)),
            // Never seen: the pieces are made to be joined. The body goes without a Brotli copy
            // rather than with a wrong one.
            brotli: joined_brotli.then(|| copy("-br", brotli)),
            identity: Encoded {
                etag: etag(&tag, ""),
                body,
            },
        }
    }

    /// The compressed forms of `piece`, made now unless made this round or the last.
    fn piece(&mut self, piece: &[u8], quality: u32) -> &Piece {
        if !self.pieces.contains_key(piece) {
            let made = match self.last_pieces.remove(piece) {
                Some(made) => made,
                None => {
                    self.compressed += piece.len();
                    Piece {
                        deflate: deflate_run(piece),
                        brotli: brotli_stream(piece, quality),
                    }
                }
            };
            self.pieces.insert(piece.into(), made);
        }
        &self.pieces[piece]
    }
}

/// `piece` as raw Deflate blocks at the best level, none final, ending with a sync flush.
fn deflate_run(piece: &[u8]) -> Vec<u8> {
    let mut compressor = flate2::Compress::new(Compression::best(), false);
    let mut out = Vec::with_capacity(piece.len() + 64);
    loop {
        let read = compressor.total_in() as usize;
        if compressor
            .compress_vec(&piece[read..], &mut out, FlushCompress::Sync)
            .is_err()
        {
            break;
        }
        // The flush is complete once all is read and room was left.
        if compressor.total_in() as usize == piece.len() && out.len() < out.capacity() {
            break;
        }
        out.reserve(out.capacity().max(1024));
    }
    out
}

/// `piece` as a Brotli stream made to be concatenated (no dictionary, the same window as all).
fn brotli_stream(piece: &[u8], quality: u32) -> Vec<u8> {
    let params = brotli::enc::BrotliEncoderParams {
        quality: quality as i32,
        lgwin: i32::from(BROTLI_WINDOW),
        catable: true,
        appendable: true,
        use_dictionary: false,
        ..Default::default()
    };
    let mut out = Vec::with_capacity(piece.len() / 2 + 64);
    match brotli::BrotliCompress(&mut &piece[..], &mut out, &params) {
        Ok(_) => out,
        Err(_) => Vec::new(),
    }
}

/// Feeds `stream` to `catli`, growing `out`; false when the streams cannot be joined.
fn concatenate(catli: &mut BroCatli, stream: &[u8], out: &mut Vec<u8>, len: &mut usize) -> bool {
    let mut read = 0;
    loop {
        match catli.stream(stream, &mut read, out, len) {
            BroCatliResult::NeedsMoreInput => return true,
            BroCatliResult::NeedsMoreOutput => out.resize(out.len() * 2 + 64, 0),
            _ => return false,
        }
    }
}

/// Ends the joined stream in `out`; false when it cannot be.
fn finish(catli: &mut BroCatli, out: &mut Vec<u8>, len: &mut usize) -> bool {
    loop {
        match catli.finish(out, len) {
            BroCatliResult::Success => return true,
            BroCatliResult::NeedsMoreOutput => out.resize(out.len() * 2 + 64, 0),
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{db::seed::text, precomputed::decoded_copies};

    #[test]
    fn joined_copies_decode_to_the_body_and_unchanged_pieces_are_not_compressed_again() {
        let mut reuse = Reuse::default();
        let tail = text(7, 300_000);
        for round in 0..3 {
            let body = format!("{{\"updated_at\":\"round {round}\",\"notices\":\"{tail}\"}}");
            let made = reuse.precomputed(body.clone(), Compress::EVERY_ROUND);
            let plain = Precomputed::new(body.clone(), Compress::EVERY_ROUND);
            assert_eq!(made.etags(), plain.etags(), "the same tags as made whole");
            for copy in decoded_copies(&made) {
                assert!(
                    copy == body.as_bytes(),
                    "round {round}: a copy decodes to the body"
                );
            }
            if round == 0 {
                assert_eq!(reuse.compressed, body.len());
            } else {
                // Only the piece holding the change is compressed again.
                assert!(reuse.compressed <= MAX_PIECE, "{}", reuse.compressed);
            }
            reuse.next_round();
        }
        let body = format!("{{\"updated_at\":\"round 2\",\"notices\":\"{tail}\"}}");
        reuse.precomputed(body, Compress::EVERY_ROUND);
        assert_eq!(
            reuse.compressed, 0,
            "a body made last round is reused whole"
        );
        reuse.next_round();
        // Its pieces were kept with it: a body edited after a round without change reuses them.
        let body = format!("{{\"updated_at\":\"round 3\",\"notices\":\"{tail}\"}}");
        reuse.precomputed(body, Compress::EVERY_ROUND);
        assert!(reuse.compressed <= MAX_PIECE, "{}", reuse.compressed);
    }

    #[test]
    fn an_edit_moves_no_other_pieces_edges() {
        let body = text(3, 200_000);
        let edited = format!("{}changed{}", &body[..100_000], &body[100_000..]);
        let before = pieces(body.as_bytes());
        let after = pieces(edited.as_bytes());
        assert!(before.len() > 4, "{}", before.len());
        let changed = after.iter().filter(|p| !before.contains(p)).count();
        assert!(changed <= 2, "{changed} of {} pieces changed", after.len());
        assert!(before.iter().all(|p| p.len() <= MAX_PIECE));
        assert_eq!(before.concat(), body.as_bytes());
    }

    #[test]
    fn small_bodies_have_no_copies_and_tiny_pieces_join() {
        let mut reuse = Reuse::default();
        let made = reuse.precomputed("{}", Compress::EVERY_ROUND);
        assert_eq!(made.size(), 2);
        // A body whose last piece is a byte long.
        let body = format!("{}x", text(5, MAX_PIECE));
        let made = reuse.precomputed(body.clone(), Compress::EVERY_ROUND);
        for copy in decoded_copies(&made) {
            assert!(copy == body.as_bytes());
        }
    }
}
