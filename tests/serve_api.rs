//! `engine serve`'s API over real sockets on loopback: games against Ox88, at one board and
//! in two browsers, the refusals (bad JSON, illegal moves, wrong seats, huge bodies, unknown
//! paths), the PGN download, the analysis stream and the cap on games.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().expect("stdout piped"))
            .read_line(&mut line)
            .expect("the first line");
        let port = line
            .trim()
            .rsplit(':')
            .next()
            .and_then(|tail| tail.trim_end_matches('/').parse().ok())
            .unwrap_or_else(|| panic!("no port in '{line}'"));
        Server { child, port }
    }

    /// A client of an already running server (for other threads).
    fn client(port: u16) -> Client {
        Client { port }
    }

    /// Sends raw bytes, returns (status, headers+body text).
    fn raw(&self, bytes: &[u8]) -> (u16, String) {
        raw_on(self.port, bytes)
    }

    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        request_on(self.port, method, path, body)
    }

    fn post(&self, path: &str, body: &str) -> (u16, String) {
        self.request("POST", path, body)
    }

    fn get(&self, path: &str) -> (u16, String) {
        self.request("GET", path, "")
    }
}

/// The request half of `Server`, for threads.
struct Client {
    port: u16,
}

impl Client {
    fn post(&self, path: &str, body: &str) -> (u16, String) {
        request_on(self.port, "POST", path, body)
    }

    fn get(&self, path: &str) -> (u16, String) {
        request_on(self.port, "GET", path, "")
    }
}

fn raw_on(port: u16, bytes: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    let _ = stream.write_all(bytes);
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    (status, text)
}

fn request_on(port: u16, method: &str, path: &str, body: &str) -> (u16, String) {
    let (status, text) = raw_on(
        port,
        format!(
            "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    );
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, body)| body)
        .to_string();
    (status, body)
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The string value of `key` in a flat part of a JSON document (enough for these tests).
fn field(json: &str, key: &str) -> String {
    let marker = format!("\"{key}\":");
    let start = json
        .find(&marker)
        .unwrap_or_else(|| panic!("no {key} in {json}"))
        + marker.len();
    let rest = &json[start..];
    if let Some(quoted) = rest.strip_prefix('"') {
        quoted[..quoted.find('"').expect("closing quote")].to_string()
    } else {
        rest[..rest.find([',', '}']).unwrap_or(rest.len())].to_string()
    }
}

fn moves_of(json: &str) -> usize {
    let start = json.find("\"moves\":[").expect("moves") + 9;
    let list = &json[start..start + json[start..].find(']').expect("end of moves")];
    list.matches("\"uci\"").count()
}

fn seat_body(game: &str, seat: &str, extra: &str) -> String {
    format!("{{\"game\":\"{game}\",\"seat\":\"{seat}\"{extra}}}")
}

#[test]
fn a_game_against_ox88() {
    let server = Server::start();
    let (status, levels) = server.get("/api/levels");
    assert_eq!(status, 200);
    assert!(
        levels.contains("{\"name\":\"easy\",\"elo\":1000}"),
        "{levels}"
    );
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(page.to_ascii_lowercase().contains("<html"), "{page}");
    assert_eq!(server.get("/app.js").0, 200);
    assert_eq!(
        server.get("/?game=x&seat=y").0,
        200,
        "a game link serves the page"
    );

    let (status, state) = server.post(
        "/api/game",
        r#"{"mode":"engine","color":"white","level":"easy"}"#,
    );
    assert_eq!(status, 200, "{state}");
    let (game, seat) = (field(&state, "game"), field(&state, "seat"));
    assert_eq!(game.len(), 32);
    assert_eq!(seat.len(), 32);
    assert_ne!(game, seat);
    assert_eq!(field(&state, "you"), "white");
    assert_eq!(moves_of(&state), 0);
    assert!(
        state.contains("\"uci\":\"e2e4\",\"san\":\"e4\",\"from\":\"e2\",\"to\":\"e4\""),
        "{state}"
    );

    let (status, state) = server.post("/api/move", &seat_body(&game, &seat, r#","move":"e4""#));
    assert_eq!(status, 200, "{state}");
    assert_eq!(moves_of(&state), 2, "Ox88 replied: {state}");
    assert_eq!(field(&state, "turn"), "white");

    let (status, error) = server.post("/api/move", &seat_body(&game, &seat, r#","move":"e2e5""#));
    assert_eq!(status, 400, "{error}");
    assert!(error.starts_with("{\"error\":"), "{error}");
    let (status, _) = server.post(
        "/api/move",
        &seat_body(&game, "0123456789abcdef0123456789abcdef", r#","move":"d4""#),
    );
    assert_eq!(status, 404, "a wrong seat learns nothing");
    let (status, _) = server.post(
        "/api/move",
        &seat_body("nosuchgame", &seat, r#","move":"d4""#),
    );
    assert_eq!(status, 404);

    let (status, hint) = server.post("/api/hint", &seat_body(&game, &seat, ""));
    assert_eq!(status, 200, "{hint}");
    assert_eq!(field(&hint, "move").len(), 4, "{hint}");

    let (status, state) = server.post("/api/undo", &seat_body(&game, &seat, ""));
    assert_eq!(status, 200, "{state}");
    assert_eq!(moves_of(&state), 0);
    let (status, _) = server.post("/api/undo", &seat_body(&game, &seat, ""));
    assert_eq!(status, 409, "nothing left to take back");

    let (status, state) = server.post("/api/resign", &seat_body(&game, &seat, ""));
    assert_eq!(status, 200);
    assert_eq!(field(&state, "result"), "0-1");
    assert!(field(&state, "end").contains("resigns"), "{state}");
    let (status, _) = server.post("/api/move", &seat_body(&game, &seat, r#","move":"e4""#));
    assert_eq!(status, 409, "the game is over");
}

#[test]
fn ox88_moves_first_and_a_mate_ends_the_game() {
    let server = Server::start();
    let (status, state) = server.post(
        "/api/game",
        r#"{"mode":"engine","color":"black","level":"1400"}"#,
    );
    assert_eq!(status, 200, "{state}");
    assert_eq!(moves_of(&state), 1, "Ox88 opened as white: {state}");
    assert_eq!(field(&state, "you"), "black");
    // White (the person) mates at once.
    let (status, state) = server.post(
        "/api/game",
        r#"{"mode":"engine","color":"white","level":"master","fen":"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"}"#,
    );
    assert_eq!(status, 200, "{state}");
    let (game, seat) = (field(&state, "game"), field(&state, "seat"));
    let (status, state) = server.post("/api/move", &seat_body(&game, &seat, r#","move":"d1d8""#));
    assert_eq!(status, 200, "{state}");
    assert_eq!(field(&state, "result"), "1-0");
    assert!(field(&state, "end").starts_with("Checkmate"), "{state}");
    assert_eq!(field(&state, "check"), "g8");
    let (status, pgn) = server.get(&format!("/api/pgn?game={game}&seat={seat}"));
    assert_eq!(status, 200);
    assert!(
        pgn.contains("[FEN \"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\"]"),
        "{pgn}"
    );
    assert!(pgn.trim_end().ends_with("1. Rd8# 1-0"), "{pgn}");
    let (_, head) =
        server.raw(format!("GET /api/pgn?game={game}&seat={seat} HTTP/1.1\r\n\r\n").as_bytes());
    assert!(
        head.contains("Content-Disposition: attachment; filename=\"ox88-"),
        "{head}"
    );
}

#[test]
fn two_players_at_one_board_and_in_two_browsers() {
    let server = Server::start();
    let (_, state) = server.post("/api/game", r#"{"mode":"local"}"#);
    let (game, seat) = (field(&state, "game"), field(&state, "seat"));
    assert_eq!(field(&state, "you"), "both");
    for mv in ["e4", "e5", "Qh5", "Nc6"] {
        let (status, state) = server.post(
            "/api/move",
            &seat_body(&game, &seat, &format!(",\"move\":\"{mv}\"")),
        );
        assert_eq!(status, 200, "{mv}: {state}");
    }
    let (_, state) = server.post("/api/undo", &seat_body(&game, &seat, ""));
    assert_eq!(moves_of(&state), 3, "one ply back at one board");
    let (_, state) = server.post("/api/draw", &seat_body(&game, &seat, ""));
    assert_eq!(field(&state, "result"), "1/2-1/2");

    let (_, state) = server.post(
        "/api/game",
        r#"{"mode":"remote","color":"white","time":"3+2"}"#,
    );
    let (game, white) = (field(&state, "game"), field(&state, "seat"));
    let invite = field(&state, "invite");
    let black = invite
        .rsplit("seat=")
        .next()
        .expect("a seat in the invite")
        .to_string();
    assert!(
        invite.starts_with(&format!("/?game={game}&seat=")),
        "{invite}"
    );
    assert_ne!(white, black);
    assert_eq!(field(&state, "opponent_joined"), "false");
    assert_eq!(
        field(&state, "running"),
        "null",
        "no clock runs before the first move"
    );
    let (status, _) = server.post("/api/move", &seat_body(&game, &black, r#","move":"e4""#));
    assert_eq!(status, 403, "black may not move for white");
    let (_, state) = server.get(&format!("/api/state?game={game}&seat={black}"));
    assert_eq!(field(&state, "you"), "black");
    assert!(state.contains("\"legal\":[]"), "not black's turn: {state}");
    assert_eq!(
        field(&state, "invite"),
        "null",
        "only the creator sees the invite"
    );
    let (status, _) = server.post("/api/move", &seat_body(&game, &white, r#","move":"e4""#));
    assert_eq!(status, 200);
    let (_, state) = server.get(&format!("/api/state?game={game}&seat={white}"));
    assert_eq!(field(&state, "opponent_joined"), "true");
    assert_eq!(field(&state, "running"), "black");
    let (status, state) = server.post("/api/move", &seat_body(&game, &black, r#","move":"e7e5""#));
    assert_eq!(status, 200, "{state}");
    assert_eq!(moves_of(&state), 2);
    let (status, _) = server.post("/api/undo", &seat_body(&game, &white, ""));
    assert_eq!(status, 409, "no takebacks between two browsers");
    let (_, state) = server.post("/api/draw", &seat_body(&game, &white, ""));
    assert_eq!(field(&state, "draw_offer"), "white");
    let (_, state) = server.post("/api/draw", &seat_body(&game, &black, ""));
    assert_eq!(
        field(&state, "result"),
        "1/2-1/2",
        "the other seat accepts: {state}"
    );
}

#[test]
fn bad_requests_get_clear_errors_and_the_server_stays() {
    let server = Server::start();
    for (method, path, body, expected) in [
        ("POST", "/api/game", "{not json", 400),
        ("POST", "/api/game", "[1,2]", 400),
        ("POST", "/api/game", r#"{"mode":"chess-boxing"}"#, 400),
        ("POST", "/api/game", r#"{"fen":"8/8/8/8 w - - 0 1"}"#, 400),
        ("POST", "/api/game", r#"{"level":"grandmaster"}"#, 400),
        ("POST", "/api/game", r#"{"time":"forever"}"#, 400),
        ("POST", "/api/move", r#"{"game":"x"}"#, 400),
        ("GET", "/api/state", "", 400),
        ("GET", "/api/analyze?fen=nonsense", "", 400),
        ("GET", "/nothing/here", "", 404),
        ("DELETE", "/api/game", "", 405),
    ] {
        let (status, text) = server.request(method, path, body);
        assert_eq!(status, expected, "{method} {path} {body}: {text}");
        assert!(text.contains("\"error\":"), "{text}");
    }
    let huge = format!(
        "POST /api/game HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
        10_000_000
    );
    assert_eq!(server.raw(huge.as_bytes()).0, 413);
    let long_head = format!("GET / HTTP/1.1\r\nX-Filler: {}\r\n\r\n", "x".repeat(40_000));
    assert_eq!(server.raw(long_head.as_bytes()).0, 431);
    assert_eq!(server.raw(b"HELLO\r\n\r\n").0, 400);
    // A client that connects and leaves says nothing; the next request is served.
    drop(TcpStream::connect(("127.0.0.1", server.port)).expect("connects"));
    assert_eq!(server.get("/api/levels").0, 200);
}

#[test]
fn the_analysis_stream_sends_lines() {
    let server = Server::start();
    let (_, state) = server.post("/api/game", r#"{"mode":"analysis"}"#);
    let (game, seat) = (field(&state, "game"), field(&state, "seat"));
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).expect("connects");
    stream
        .write_all(
            format!("GET /api/analysis?game={game}&seat={seat}&multipv=2 HTTP/1.1\r\n\r\n")
                .as_bytes(),
        )
        .expect("request");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    reader.read_line(&mut head).expect("status line");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let mut events = Vec::new();
    for line in reader.lines() {
        let Ok(line) = line else { break };
        if let Some(data) = line.strip_prefix("data: ") {
            events.push(data.to_string());
            if events.len() == 3 {
                break;
            }
        }
    }
    assert_eq!(events.len(), 3);
    assert!(events[2].contains("\"multipv\":2"), "{}", events[2]);
    assert!(events[2].contains("\"pv_san\":["), "{}", events[2]);
    assert!(events[2].contains("\"wdl\":["), "{}", events[2]);
}

#[test]
fn the_number_of_games_is_capped() {
    let server = Server::start();
    let mut refused = None;
    for index in 0..=ox88::serve::games::MAX_GAMES {
        let (status, text) = server.post("/api/game", r#"{"mode":"local"}"#);
        if status != 200 {
            refused = Some((index, status, text));
            break;
        }
    }
    let (index, status, text) = refused.expect("a refusal past the cap");
    assert_eq!(index, ox88::serve::games::MAX_GAMES);
    assert_eq!(status, 503);
    assert!(text.contains("maximum"), "{text}");
}

#[test]
fn a_slow_client_is_cut_off_by_the_request_deadline() {
    let server = Server::start();
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).expect("connects");
    stream
        .write_all(b"GET / HTTP/1.1\r\nX-Slow: ")
        .expect("a partial head");
    let started = std::time::Instant::now();
    // A byte every two seconds: each read is quick, the whole request never ends.
    let mut response = Vec::new();
    stream
        .set_read_timeout(Some(Duration::from_millis(100)))
        .expect("timeout");
    while started.elapsed() < Duration::from_secs(30) {
        let _ = stream.write_all(b"x");
        let mut chunk = [0u8; 512];
        let deadline = std::time::Instant::now() + Duration::from_secs(2);
        while std::time::Instant::now() < deadline {
            if let Ok(read) = stream.read(&mut chunk)
                && read > 0
            {
                response.extend_from_slice(&chunk[..read]);
            }
        }
        if !response.is_empty() {
            break;
        }
    }
    let text = String::from_utf8_lossy(&response);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(server.get("/api/levels").0, 200);
}

#[test]
fn a_game_in_two_browsers_is_played_to_mate() {
    let server = Server::start();
    let (_, state) = server.post("/api/game", r#"{"mode":"remote","color":"black"}"#);
    let (game, black) = (field(&state, "game"), field(&state, "seat"));
    let white = field(&state, "invite")
        .rsplit("seat=")
        .next()
        .expect("an invite")
        .to_string();
    // A guessed seat (another game's) is refused like any unknown one.
    let (_, other) = server.post("/api/game", r#"{"mode":"local"}"#);
    let stranger = field(&other, "seat");
    let (status, _) = server.post("/api/move", &seat_body(&game, &stranger, r#","move":"f3""#));
    assert_eq!(status, 404);
    for (seat, mv) in [
        (&white, "f3"),
        (&black, "e5"),
        (&white, "g4"),
        (&black, "Qh4"),
    ] {
        let (status, state) = server.post(
            "/api/move",
            &seat_body(&game, seat, &format!(",\"move\":\"{mv}\"")),
        );
        assert_eq!(status, 200, "{mv}: {state}");
    }
    let (_, state) = server.get(&format!("/api/state?game={game}&seat={white}"));
    assert_eq!(field(&state, "result"), "0-1");
    assert_eq!(field(&state, "end"), "Checkmate: Black wins.");
    assert!(state.contains("\"legal\":[]"), "{state}");
    let (status, _) = server.post("/api/move", &seat_body(&game, &white, r#","move":"a3""#));
    assert_eq!(status, 409);
}

#[test]
fn concurrent_games_and_a_burst_of_connections() {
    let server = Server::start();
    let port = server.port;
    // Eight games against Ox88 played at the same time, each from its own thread.
    let players: Vec<_> = (0..8)
        .map(|_| {
            std::thread::spawn(move || {
                let client = Server::client(port);
                let (status, state) = client.post(
                    "/api/game",
                    r#"{"mode":"engine","color":"white","level":"easy"}"#,
                );
                assert_eq!(status, 200, "{state}");
                let (game, seat) = (field(&state, "game"), field(&state, "seat"));
                let mut played = 0;
                for mv in ["d4", "e4", "Nf3", "c4"] {
                    let (status, state) = client.post(
                        "/api/move",
                        &seat_body(&game, &seat, &format!(",\"move\":\"{mv}\"")),
                    );
                    // A busy server may refuse a search (503); an illegal try is 400.
                    assert!([200, 400, 503].contains(&status), "{status}: {state}");
                    if status == 200 {
                        played += 1;
                    }
                }
                played
            })
        })
        .collect();
    let played: usize = players
        .into_iter()
        .map(|player| player.join().expect("a player thread"))
        .sum();
    assert!(
        played >= 8,
        "at least one move per game went through: {played}"
    );
    // Three hundred connections at once: each is answered (200, or 503 past the cap).
    let burst: Vec<_> = (0..300)
        .map(|_| std::thread::spawn(move || Server::client(port).get("/api/levels").0))
        .collect();
    let statuses: Vec<u16> = burst
        .into_iter()
        .map(|request| request.join().expect("a request thread"))
        .collect();
    assert!(
        statuses.iter().all(|status| [200, 503].contains(status)),
        "{statuses:?}"
    );
    assert!(statuses.iter().filter(|&&status| status == 200).count() >= 100);
    assert_eq!(server.get("/api/levels").0, 200, "still up");
}
