//! Answers made once and sent many times: a body with its strong ETag, and gzip and Brotli copies
//! (each with its own tag) made when the body is made, never per request. A request then costs
//! the choice of a copy (`Accept-Encoding`), an `If-None-Match` comparison and a reference-counted
//! copy of the bytes. The app's documents (`site::pages`) and the status answers
//! (`status::render`) are both sent this way.

pub mod negotiate;
pub mod reuse;

use std::io::Write;

use axum::{
    body::{Body, Bytes},
    http::{header, HeaderValue, StatusCode},
    response::Response,
};

pub use self::negotiate::Encoding;

/// How hard to compress, by how often the body is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compress {
    /// Bodies shorter than this are sent as they are.
    pub from_bytes: usize,
    /// Brotli's quality (0-11) for bodies up to 512 KiB; larger ones get at most 9.
    pub brotli_quality: u32,
}

impl Compress {
    /// Made once per build of the app (its documents): the best Brotli, tens of milliseconds a
    /// page. 32 bytes is the compression layer's own threshold.
    pub const ONCE: Compress = Compress {
        from_bytes: 32,
        brotli_quality: 11,
    };
    /// Made again on every round of status checks: a cheaper Brotli, and nothing under 1 KiB (a
    /// badge is not worth it; a 90-day history is about 60 KB of JSON, a few KB compressed).
    pub const EVERY_ROUND: Compress = Compress {
        from_bytes: 1024,
        brotli_quality: 5,
    };
}

/// One copy of a body and its tag.
#[derive(Debug, Clone)]
pub struct Encoded {
    pub body: Bytes,
    pub etag: HeaderValue,
}

/// A body and its compressed copies (cloning copies reference-counted pointers).
#[derive(Debug, Clone)]
pub struct Precomputed {
    identity: Encoded,
    gzip: Option<Encoded>,
    brotli: Option<Encoded>,
}

impl Precomputed {
    /// Tags `body` (the first 128 bits of its SHA-256; `-gz` and `-br` for the copies) and makes
    /// its copies as `compress` says.
    pub fn new(body: impl Into<Bytes>, compress: Compress) -> Self {
        let body = body.into();
        let tag = tag_of(&body);
        let copy = |suffix: &str, compressed: Option<Vec<u8>>| {
            compressed.map(|bytes| Encoded {
                body: Bytes::from(bytes),
                etag: etag(&tag, suffix),
            })
        };
        let worth = body.len() >= compress.from_bytes;
        let quality = if body.len() <= 512 * 1024 {
            compress.brotli_quality
        } else {
            compress.brotli_quality.min(9)
        };
        Self {
            gzip: copy("-gz", worth.then(|| gzip(&body)).flatten()),
            brotli: copy("-br", worth.then(|| brotli(&body, quality)).flatten()),
            identity: Encoded {
                etag: etag(&tag, ""),
                body,
            },
        }
    }

    /// The copy for `encoding`, with its `Content-Encoding`, or the plain one.
    pub fn encoded(&self, encoding: Encoding) -> (&Encoded, Option<&'static str>) {
        match encoding {
            Encoding::Brotli => self.brotli.as_ref().map(|copy| (copy, Some("br"))),
            Encoding::Gzip => self.gzip.as_ref().map(|copy| (copy, Some("gzip"))),
            Encoding::Identity => None,
        }
        .unwrap_or((&self.identity, None))
    }

    /// Every tag this body is sent with (one per encoding).
    pub fn etags(&self) -> Vec<&HeaderValue> {
        self.copies().map(|copy| &copy.etag).collect()
    }

    /// The bytes kept, all copies counted.
    pub fn size(&self) -> usize {
        self.copies().map(|copy| copy.body.len()).sum()
    }

    fn copies(&self) -> impl Iterator<Item = &Encoded> {
        [
            Some(&self.identity),
            self.gzip.as_ref(),
            self.brotli.as_ref(),
        ]
        .into_iter()
        .flatten()
    }

    /// `status` (or 304 when it is 200 and `if_none_match` names one of this body's tags) with
    /// the copy for `encoding`: `Content-Type`, `ETag`, `Content-Encoding` and
    /// `Vary: accept-encoding` set. The caller adds its own headers.
    pub fn answer<'a>(
        &self,
        status: StatusCode,
        content_type: HeaderValue,
        encoding: Encoding,
        if_none_match: impl IntoIterator<Item = &'a HeaderValue>,
    ) -> Response {
        let (copy, content_encoding) = self.encoded(encoding);
        let not_modified =
            status == StatusCode::OK && negotiate::names_a_tag(if_none_match, &self.etags());
        let mut response = if not_modified {
            Response::new(Body::empty())
        } else {
            Response::new(Body::from(copy.body.clone()))
        };
        *response.status_mut() = if not_modified {
            StatusCode::NOT_MODIFIED
        } else {
            status
        };
        let headers = response.headers_mut();
        // Room for what the callers and the edge add (CSP, Link, the security headers...): one
        // allocation instead of growing three times.
        headers.reserve(20);
        headers.insert(header::CONTENT_TYPE, content_type);
        headers.insert(header::ETAG, copy.etag.clone());
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        if let Some(content_encoding) = content_encoding {
            headers.insert(
                header::CONTENT_ENCODING,
                HeaderValue::from_static(content_encoding),
            );
        }
        response
    }
}

/// A body's tag: the first 128 bits of its SHA-256, in hex.
fn tag_of(body: &[u8]) -> String {
    crate::hex::encode(&ring::digest::digest(&ring::digest::SHA256, body).as_ref()[..16])
}

fn etag(tag: &str, suffix: &str) -> HeaderValue {
    HeaderValue::from_str(&format!("\"{tag}{suffix}\"")).unwrap_or(HeaderValue::from_static("\"\""))
}

/// `body` gzip-compressed at the best level.
fn gzip(body: &[u8]) -> Option<Vec<u8>> {
    let mut encoder = flate2::write::GzEncoder::new(
        Vec::with_capacity(body.len() / 3),
        flate2::Compression::best(),
    );
    encoder.write_all(body).ok()?;
    encoder.finish().ok()
}

fn brotli(body: &[u8], quality: u32) -> Option<Vec<u8>> {
    let params = brotli::enc::BrotliEncoderParams {
        quality: quality as i32,
        lgwin: 22,
        ..Default::default()
    };
    let mut out = Vec::with_capacity(body.len() / 4);
    brotli::BrotliCompress(&mut &body[..], &mut out, &params).ok()?;
    Some(out)
}

/// The gzip and Brotli copies of `answer`, decoded (tests of this crate and those above: both must
/// give the body back).
#[doc(hidden)]
pub fn decoded_copies(answer: &Precomputed) -> [Vec<u8>; 2] {
    let (gz, encoding) = answer.encoded(Encoding::Gzip);
    assert_eq!(encoding, Some("gzip"));
    let mut unzipped = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(&gz.body[..]),
        &mut unzipped,
    )
    .expect("gunzip");
    let (br, encoding) = answer.encoded(Encoding::Brotli);
    assert_eq!(encoding, Some("br"));
    let mut unbrotlied = Vec::new();
    brotli::BrotliDecompress(&mut &br.body[..], &mut unbrotlied).expect("unbrotli");
    [unzipped, unbrotlied]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(response: &Response) -> (&str, Option<&str>) {
        let h = response.headers();
        (
            h[header::ETAG].to_str().expect("ascii"),
            h.get(header::CONTENT_ENCODING)
                .map(|v| v.to_str().expect("ascii")),
        )
    }

    #[test]
    fn copies_decode_to_the_body_and_carry_their_own_strong_tags() {
        let body = "status ".repeat(400);
        let answer = Precomputed::new(body.clone(), Compress::EVERY_ROUND);
        let tags = answer.etags();
        assert_eq!(tags.len(), 3);
        // 128 bits of hex between quotes, then the copy's suffix.
        assert_eq!(tags[0].len(), 34);
        assert!(tags[1].to_str().expect("ascii").ends_with("-gz\""));
        assert!(tags[2].to_str().expect("ascii").ends_with("-br\""));

        assert_eq!(decoded_copies(&answer), [body.as_bytes(), body.as_bytes()]);
    }

    #[test]
    fn a_small_body_has_no_copies() {
        let answer = Precomputed::new("{}", Compress::EVERY_ROUND);
        assert_eq!(answer.etags().len(), 1);
        assert_eq!(answer.encoded(Encoding::Brotli).1, None);
    }

    #[test]
    fn any_of_the_tags_revalidates_and_only_a_200_becomes_304() {
        let answer = Precomputed::new("x".repeat(2000), Compress::EVERY_ROUND);
        let json = HeaderValue::from_static("application/json");
        let fresh = answer.answer(StatusCode::OK, json.clone(), Encoding::Brotli, []);
        assert_eq!(fresh.status(), StatusCode::OK);
        assert_eq!(fresh.headers()[header::VARY], "accept-encoding");
        let (tag, encoding) = headers(&fresh);
        assert_eq!(encoding, Some("br"));
        let tag = HeaderValue::from_str(tag).expect("tag");
        for encoding in [Encoding::Identity, Encoding::Gzip, Encoding::Brotli] {
            let again = answer.answer(StatusCode::OK, json.clone(), encoding, [&tag]);
            assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        }
        let missing = answer.answer(StatusCode::NOT_FOUND, json.clone(), Encoding::Gzip, [&tag]);
        assert_eq!(missing.status(), StatusCode::NOT_FOUND);
        let other = HeaderValue::from_static("\"other\"");
        let changed = answer.answer(StatusCode::OK, json, Encoding::Identity, [&other]);
        assert_eq!(changed.status(), StatusCode::OK);
        assert_eq!(headers(&changed).1, None);
    }
}
