//! A small JSON writer for `--json` output (`perft`, `bench`, `analyze`, `random` and the UCI
//! `d json` / `eval json` / `analyze json` extensions) and the API of `engine serve`, and a
//! small reader for that API's request bodies.
//!
//! A value is built as a tree and written in one go, so every document is complete and
//! valid JSON or not written at all. Objects keep their keys in insertion order, which keeps
//! the output stable for people and diffs. Written out compact, on one line, so a UCI
//! extension can send it as one line. The reader (`parse`) takes what a browser sends:
//! strict JSON (RFC 8259), nesting at most `MAX_DEPTH` deep, every error a message with the
//! byte offset; numbers are read as `Float` (or `Int` when integral and in range).

use std::fmt::{self, Write};

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    /// Written with up to six decimals; not-a-number and infinities become `null`.
    Float(f64),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// An object from `(key, value)` pairs, in that order.
    pub fn object<K: Into<String>>(pairs: impl IntoIterator<Item = (K, Json)>) -> Json {
        Json::Object(
            pairs
                .into_iter()
                .map(|(key, value)| (key.into(), value))
                .collect(),
        )
    }

    pub fn str(text: impl Into<String>) -> Json {
        Json::Str(text.into())
    }

    pub fn array(items: impl IntoIterator<Item = Json>) -> Json {
        Json::Array(items.into_iter().collect())
    }
}

impl From<bool> for Json {
    fn from(value: bool) -> Json {
        Json::Bool(value)
    }
}

impl From<i32> for Json {
    fn from(value: i32) -> Json {
        Json::Int(i64::from(value))
    }
}

impl From<i64> for Json {
    fn from(value: i64) -> Json {
        Json::Int(value)
    }
}

impl From<u32> for Json {
    fn from(value: u32) -> Json {
        Json::UInt(u64::from(value))
    }
}

impl From<u64> for Json {
    fn from(value: u64) -> Json {
        Json::UInt(value)
    }
}

impl From<usize> for Json {
    fn from(value: usize) -> Json {
        Json::UInt(value as u64)
    }
}

impl From<f64> for Json {
    fn from(value: f64) -> Json {
        Json::Float(value)
    }
}

impl From<&str> for Json {
    fn from(value: &str) -> Json {
        Json::Str(value.to_string())
    }
}

impl From<String> for Json {
    fn from(value: String) -> Json {
        Json::Str(value)
    }
}

impl<T: Into<Json>> From<Option<T>> for Json {
    fn from(value: Option<T>) -> Json {
        value.map_or(Json::Null, Into::into)
    }
}

/// Writes `text` as a JSON string literal: quotes, backslashes and control characters escaped
/// (`\n`, `\t` ... or `\u00XX`); everything else, non-ASCII included, as it is (JSON is UTF-8).
fn write_string(out: &mut impl Write, text: &str) -> fmt::Result {
    out.write_char('"')?;
    for ch in text.chars() {
        match ch {
            '"' => out.write_str("\\\"")?,
            '\\' => out.write_str("\\\\")?,
            '\n' => out.write_str("\\n")?,
            '\r' => out.write_str("\\r")?,
            '\t' => out.write_str("\\t")?,
            '\u{08}' => out.write_str("\\b")?,
            '\u{0c}' => out.write_str("\\f")?,
            ch if (ch as u32) < 0x20 => write!(out, "\\u{:04x}", ch as u32)?,
            ch => out.write_char(ch)?,
        }
    }
    out.write_char('"')
}

impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Json::Null => f.write_str("null"),
            Json::Bool(value) => write!(f, "{value}"),
            Json::Int(value) => write!(f, "{value}"),
            Json::UInt(value) => write!(f, "{value}"),
            Json::Float(value) if value.is_finite() => {
                let text = format!("{value:.6}");
                // Trailing zeros say nothing; keep one digit after the point.
                let trimmed = text.trim_end_matches('0');
                let trimmed = trimmed
                    .strip_suffix('.')
                    .map_or(trimmed.to_string(), |whole| format!("{whole}.0"));
                f.write_str(&trimmed)
            }
            Json::Float(_) => f.write_str("null"),
            Json::Str(text) => write_string(f, text),
            Json::Array(items) => {
                f.write_char('[')?;
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        f.write_char(',')?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_char(']')
            }
            Json::Object(pairs) => {
                f.write_char('{')?;
                for (index, (key, value)) in pairs.iter().enumerate() {
                    if index > 0 {
                        f.write_char(',')?;
                    }
                    write_string(f, key)?;
                    write!(f, ":{value}")?;
                }
                f.write_char('}')
            }
        }
    }
}

impl Json {
    /// The value of `key` in an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(pairs) => pairs
                .iter()
                .find(|(name, _)| name == key)
                .map(|(_, value)| value),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(text) => Some(text),
            _ => None,
        }
    }
}

/// Deepest nesting `parse` accepts (a guard against stack exhaustion by hostile input).
pub const MAX_DEPTH: usize = 32;

/// Reads one JSON document (surrounding whitespace allowed, nothing after it).
pub fn parse(text: &str) -> Result<Json, String> {
    let mut reader = Reader {
        bytes: text.as_bytes(),
        at: 0,
    };
    let value = reader.value(0)?;
    reader.skip_space();
    if reader.at != reader.bytes.len() {
        return Err(reader.error("unexpected text after the JSON value"));
    }
    Ok(value)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn error(&self, what: &str) -> String {
        format!("{what} at byte {}", self.at)
    }

    fn skip_space(&mut self) {
        while self
            .bytes
            .get(self.at)
            .is_some_and(|byte| matches!(byte, b' ' | b'\t' | b'\n' | b'\r'))
        {
            self.at += 1;
        }
    }

    fn expect_word(&mut self, word: &str, value: Json) -> Result<Json, String> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.error("unknown word"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return Err(self.error("JSON nested too deep"));
        }
        self.skip_space();
        match self.bytes.get(self.at) {
            None => Err(self.error("JSON ends early")),
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(Json::Str),
            Some(b't') => self.expect_word("true", Json::Bool(true)),
            Some(b'f') => self.expect_word("false", Json::Bool(false)),
            Some(b'n') => self.expect_word("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("unexpected character")),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, String> {
        self.at += 1;
        let mut pairs = Vec::new();
        self.skip_space();
        if self.bytes.get(self.at) == Some(&b'}') {
            self.at += 1;
            return Ok(Json::Object(pairs));
        }
        loop {
            self.skip_space();
            if self.bytes.get(self.at) != Some(&b'"') {
                return Err(self.error("expected a quoted key"));
            }
            let key = self.string()?;
            self.skip_space();
            if self.bytes.get(self.at) != Some(&b':') {
                return Err(self.error("expected ':'"));
            }
            self.at += 1;
            let value = self.value(depth + 1)?;
            pairs.push((key, value));
            self.skip_space();
            match self.bytes.get(self.at) {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Json::Object(pairs));
                }
                _ => return Err(self.error("expected ',' or '}'")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json, String> {
        self.at += 1;
        let mut items = Vec::new();
        self.skip_space();
        if self.bytes.get(self.at) == Some(&b']') {
            self.at += 1;
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.skip_space();
            match self.bytes.get(self.at) {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Json::Array(items));
                }
                _ => return Err(self.error("expected ',' or ']'")),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self
            .bytes
            .get(self.at..self.at + 4)
            .and_then(|digits| std::str::from_utf8(digits).ok())
            .and_then(|digits| u32::from_str_radix(digits, 16).ok())
            .ok_or_else(|| self.error("bad \\u escape"))?;
        self.at += 4;
        Ok(digits)
    }

    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let Some(&byte) = self.bytes.get(self.at) else {
                return Err(self.error("string not closed"));
            };
            match byte {
                b'"' => {
                    self.at += 1;
                    return Ok(out);
                }
                b'\\' => {
                    self.at += 1;
                    let escape = self.bytes.get(self.at).copied();
                    self.at += 1;
                    match escape {
                        Some(b'"') => out.push('"'),
                        Some(b'\\') => out.push('\\'),
                        Some(b'/') => out.push('/'),
                        Some(b'b') => out.push('\u{08}'),
                        Some(b'f') => out.push('\u{0c}'),
                        Some(b'n') => out.push('\n'),
                        Some(b'r') => out.push('\r'),
                        Some(b't') => out.push('\t'),
                        Some(b'u') => {
                            let first = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&first)
                                && self.bytes[self.at..].starts_with(b"\\u")
                            {
                                self.at += 2;
                                let second = self.hex4()?;
                                0x10000
                                    + ((first - 0xD800) << 10)
                                    + (second.wrapping_sub(0xDC00) & 0x3FF)
                            } else {
                                first
                            };
                            out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                        }
                        _ => return Err(self.error("bad escape")),
                    }
                }
                0..=0x1F => return Err(self.error("control character in a string")),
                _ => {
                    // Copy one whole UTF-8 character (the input is a &str, so it is valid).
                    let rest = &self.bytes[self.at..];
                    let width = match byte {
                        0x00..=0x7F => 1,
                        0xC0..=0xDF => 2,
                        0xE0..=0xEF => 3,
                        _ => 4,
                    };
                    let piece = std::str::from_utf8(&rest[..width.min(rest.len())])
                        .map_err(|_| self.error("bad UTF-8"))?;
                    out.push_str(piece);
                    self.at += width;
                }
            }
        }
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.at;
        while self
            .bytes
            .get(self.at)
            .is_some_and(|byte| matches!(byte, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
        {
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at])
            .map_err(|_| self.error("bad number"))?;
        if let Ok(value) = text.parse::<i64>() {
            return Ok(Json::Int(value));
        }
        text.parse::<f64>()
            .ok()
            .filter(|value| value.is_finite())
            .map(Json::Float)
            .ok_or_else(|| self.error("bad number"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_it_writes_and_what_browsers_send() {
        let doc = Json::object([
            ("game", Json::from("ab\"c\\d")),
            ("n", Json::from(-12)),
            ("x", Json::from(0.5)),
            (
                "list",
                Json::array([Json::Null, Json::from(true), Json::from("é")]),
            ),
        ]);
        assert_eq!(parse(&doc.to_string()), Ok(doc));
        let sent =
            parse(" { \"move\" : \"e2e4\", \"u\": \"\\u00e9\\ud83d\\ude00\" } ").expect("valid");
        assert_eq!(sent.get("move").and_then(Json::as_str), Some("e2e4"));
        assert_eq!(sent.get("u").and_then(Json::as_str), Some("é😀"));
        for bad in [
            "",
            "{",
            "{\"a\"}",
            "[1,]",
            "{\"a\":1}x",
            "\"\u{1}\"",
            "nul",
            "1e999",
            "{\"a\":tru}",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        let deep = "[".repeat(MAX_DEPTH + 2) + &"]".repeat(MAX_DEPTH + 2);
        assert!(parse(&deep).is_err());
    }

    #[test]
    fn writes_nested_values_in_order() {
        let doc = Json::object([
            ("nodes", Json::from(20u64)),
            ("fen", Json::from("8/8 w")),
            ("ok", Json::from(true)),
            ("none", Json::Null),
            ("list", Json::array([Json::from(-1), Json::from(2.5)])),
        ]);
        assert_eq!(
            doc.to_string(),
            r#"{"nodes":20,"fen":"8/8 w","ok":true,"none":null,"list":[-1,2.5]}"#
        );
    }

    #[test]
    fn escapes_strings() {
        let doc = Json::from("a\"b\\c\nd\u{1}é");
        assert_eq!(doc.to_string(), "\"a\\\"b\\\\c\\nd\\u0001é\"");
    }

    #[test]
    fn floats_are_plain_numbers() {
        assert_eq!(Json::from(3.0).to_string(), "3.0");
        assert_eq!(Json::from(0.125).to_string(), "0.125");
        assert_eq!(Json::from(-2.5e-7).to_string(), "-0.0");
        assert_eq!(Json::from(f64::NAN).to_string(), "null");
    }
}
