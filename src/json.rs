//! A small JSON writer for `--json` output (`perft`, `bench`, `analyze`, `random` and the UCI
//! `d json` / `eval json` / `analyze json` extensions).
//!
//! A value is built as a tree and written in one go, so every document is complete and
//! valid JSON or not written at all. Only writing is needed (Ox88 reads no JSON), so there
//! is no parser; the client tests read the output back with Python's `json`. Objects keep
//! their keys in insertion order, which keeps the output stable for people and diffs.
//! Written out compact, on one line, so a UCI extension can send it as one line.

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

#[cfg(test)]
mod tests {
    use super::*;

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
