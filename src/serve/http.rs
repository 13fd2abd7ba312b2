//! Just enough HTTP/1.1 for `engine serve`: one request per connection, read with hard
//! limits, and a response written whole (or a server-sent-event stream's header).
//!
//! A request line and headers longer than `MAX_HEAD` bytes, a body longer than `MAX_BODY`,
//! a chunked body, or a client that sends nothing for the connection's read timeout each end
//! in an error status, never in a stuck thread or an unbounded buffer. Every response says
//! `Connection: close`: browsers open a new connection per request, which keeps the server a
//! loop of short-lived threads with nothing shared between requests but the game store.

use std::io::{BufRead, BufReader, Read, Write};

/// Longest request line plus headers.
pub const MAX_HEAD: usize = 16 * 1024;
/// Longest request body (the API's bodies are a few hundred bytes; a FEN fits many times).
pub const MAX_BODY: usize = 64 * 1024;

/// One parsed request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub method: String,
    /// The path without the query, percent-decoded.
    pub path: String,
    /// The query's `key=value` pairs, percent-decoded (`+` is a space).
    pub query: Vec<(String, String)>,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn query_value(&self, key: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(name, _)| name == key)
            .map(|(_, value)| value.as_str())
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }
}

/// Why a request could not be read; each maps to a status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The client closed the connection before a request.
    Closed,
    /// The head or the body is too large (413 / 431).
    TooLarge(&'static str),
    /// Not HTTP as this server reads it (400), or a timeout (408).
    Malformed(String),
    Timeout,
}

/// Decodes `%XX` escapes (and `+` as a space when `plus_is_space`); bad escapes stay as
/// they are, invalid UTF-8 becomes U+FFFD.
pub fn percent_decode(text: &str, plus_is_space: bool) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'%' if index + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[index + 1..index + 3])
                    .ok()
                    .and_then(|digits| u8::from_str_radix(digits, 16).ok());
                match hex {
                    Some(byte) => {
                        out.push(byte);
                        index += 3;
                    }
                    None => {
                        out.push(b'%');
                        index += 1;
                    }
                }
            }
            b'+' if plus_is_space => {
                out.push(b' ');
                index += 1;
            }
            byte => {
                out.push(byte);
                index += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn timeout_or(error: &std::io::Error, otherwise: ReadError) -> ReadError {
    match error.kind() {
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => ReadError::Timeout,
        _ => otherwise,
    }
}

/// Reads one request from `stream` (which should have a read timeout set).
pub fn read_request(stream: impl Read) -> Result<Request, ReadError> {
    let mut reader = BufReader::new(stream.take((MAX_HEAD + MAX_BODY + 1) as u64));
    let mut head_lines = Vec::new();
    let mut head_size = 0;
    loop {
        let mut line = Vec::new();
        let read = (&mut reader)
            .take((MAX_HEAD + 1 - head_size) as u64)
            .read_until(b'\n', &mut line)
            .map_err(|error| timeout_or(&error, ReadError::Closed))?;
        if read == 0 {
            return Err(if head_lines.is_empty() {
                ReadError::Closed
            } else {
                ReadError::Malformed("the request ended inside its headers".to_string())
            });
        }
        head_size += read;
        if head_size > MAX_HEAD {
            return Err(ReadError::TooLarge("request headers"));
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if head_lines.is_empty() {
                continue; // Stray empty lines before a request are allowed (RFC 9112).
            }
            break;
        }
        head_lines.push(text.to_string());
    }
    let request_line = &head_lines[0];
    let parts: Vec<&str> = request_line.split(' ').collect();
    let [method, target, version] = parts.as_slice() else {
        return Err(ReadError::Malformed(format!(
            "bad request line '{}'",
            crate::uci::command::quote(request_line)
        )));
    };
    if !version.starts_with("HTTP/1.") {
        return Err(ReadError::Malformed(format!(
            "unsupported version '{version}'"
        )));
    }
    let mut headers = Vec::new();
    for line in &head_lines[1..] {
        let Some((name, value)) = line.split_once(':') else {
            return Err(ReadError::Malformed(
                "a header line without ':'".to_string(),
            ));
        };
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
    }
    let (path, query_text) = target.split_once('?').unwrap_or((target, ""));
    let query = query_text
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (percent_decode(key, true), percent_decode(value, true))
        })
        .collect();
    let mut request = Request {
        method: method.to_string(),
        path: percent_decode(path, false),
        query,
        headers,
        body: Vec::new(),
    };
    if request
        .header("transfer-encoding")
        .is_some_and(|value| !value.eq_ignore_ascii_case("identity"))
    {
        return Err(ReadError::Malformed(
            "chunked bodies are not accepted; send Content-Length".to_string(),
        ));
    }
    if let Some(length) = request.header("content-length") {
        let length: usize = length
            .parse()
            .map_err(|_| ReadError::Malformed("Content-Length is not a number".to_string()))?;
        if length > MAX_BODY {
            return Err(ReadError::TooLarge("request body"));
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).map_err(|error| {
            timeout_or(
                &error,
                ReadError::Malformed("the body is shorter than its Content-Length".to_string()),
            )
        })?;
        request.body = body;
    }
    Ok(request)
}

/// A whole response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub headers: Vec<(&'static str, String)>,
    pub body: Vec<u8>,
}

pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Unknown",
    }
}

impl Response {
    pub fn new(status: u16, content_type: &'static str, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status,
            content_type,
            headers: Vec::new(),
            body: body.into(),
        }
    }

    pub fn json(status: u16, doc: &crate::json::Json) -> Response {
        Response::new(status, "application/json", doc.to_string())
    }

    /// `{"error": message}` with `status`.
    pub fn error(status: u16, message: &str) -> Response {
        let doc = crate::json::Json::object([("error", crate::json::Json::from(message))]);
        Response::json(status, &doc)
    }

    pub fn with_header(mut self, name: &'static str, value: String) -> Response {
        self.headers.push((name, value));
        self
    }

    pub fn write_to(&self, mut out: impl Write) -> std::io::Result<()> {
        let mut head = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\
             Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n",
            self.status,
            reason(self.status),
            self.content_type,
            self.body.len()
        );
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        out.write_all(head.as_bytes())?;
        out.write_all(&self.body)?;
        out.flush()
    }
}

/// The header of a server-sent-event stream; events follow as `data: ...\n\n`.
pub fn write_event_stream_head(mut out: impl Write) -> std::io::Result<()> {
    out.write_all(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
          Connection: close\r\nX-Content-Type-Options: nosniff\r\n\r\n",
    )?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_request_with_query_and_body() {
        let raw = b"POST /api/move?game=a%20b&x=1+2 HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nabcdEXTRA";
        let request = read_request(&raw[..]).expect("valid");
        assert_eq!(request.method, "POST");
        assert_eq!(request.path, "/api/move");
        assert_eq!(request.query_value("game"), Some("a b"));
        assert_eq!(request.query_value("x"), Some("1 2"));
        assert_eq!(request.header("host"), Some("x"));
        assert_eq!(request.body, b"abcd");
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        assert_eq!(read_request(&b""[..]), Err(ReadError::Closed));
        assert!(matches!(
            read_request(&b"GARBAGE\r\n\r\n"[..]),
            Err(ReadError::Malformed(_))
        ));
        let big = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(MAX_HEAD));
        assert_eq!(
            read_request(big.as_bytes()),
            Err(ReadError::TooLarge("request headers"))
        );
        let body = format!(
            "POST / HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
            MAX_BODY + 1
        );
        assert_eq!(
            read_request(body.as_bytes()),
            Err(ReadError::TooLarge("request body"))
        );
        assert!(matches!(
            read_request(&b"POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc"[..]),
            Err(ReadError::Malformed(_))
        ));
        assert!(matches!(
            read_request(&b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"[..]),
            Err(ReadError::Malformed(_))
        ));
        assert_eq!(percent_decode("%zz%4", false), "%zz%4");
        assert_eq!(percent_decode("%E2%99%94", false), "♔");
    }
}
