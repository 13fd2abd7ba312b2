//! `engine serve`: play and analyse in a browser, with nothing to install.
//!
//! A small HTTP/1.1 server on `std::net`: one thread per connection (at most
//! `MAX_CONNECTIONS` at once; more wait in the kernel's queue), every connection with read
//! and write timeouts so a slow or silent client costs one thread for a few seconds and no
//! more. The page, its script and its style are embedded in the binary (`page/`); the
//! JSON API (`api.rs`) plays the games held in `games.rs`. It listens on loopback unless
//! `--host` says otherwise, and then warns: anyone who can reach the port can create games
//! (though only a game's link lets them into that game).
//!
//! Module map: `http` (requests and responses), `games` (the games and their tokens),
//! `api` (the routes).

pub mod api;
pub mod games;
pub mod http;

use std::io::Read;
use std::net::{IpAddr, TcpListener, TcpStream};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use api::Server;
use http::{ReadError, Response, read_request};

/// Connections served at once.
pub const MAX_CONNECTIONS: usize = 64;
/// How long a client may take to send its whole request, and to read an ordinary response.
const IO_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port).
    #[arg(long, default_value_t = 8088)]
    pub port: u16,
    /// Address to listen on; the default is reachable from this machine only.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
}

/// Reads from a connection until a deadline for the whole request, however the client
/// spaces its bytes (a timeout per read alone lets a trickle hold a thread for hours).
struct Deadline<'a> {
    stream: &'a TcpStream,
    until: Instant,
}

impl Read for Deadline<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "request deadline",
            ));
        }
        self.stream.set_read_timeout(Some(left))?;
        (&mut &*self.stream).read(buffer)
    }
}

fn serve_connection(server: &Server, mut stream: TcpStream) {
    let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
    let deadline = Deadline {
        stream: &stream,
        until: Instant::now() + IO_TIMEOUT,
    };
    let read = read_request(deadline);
    let response = match read {
        Ok(request) => match api::route(server, &request, &mut stream) {
            Some(response) if request.method == "HEAD" => Response {
                body: Vec::new(),
                ..response
            },
            Some(response) => response,
            None => return,
        },
        Err(ReadError::Closed) => return,
        Err(ReadError::Timeout) => Response::error(408, "the request did not arrive in time"),
        Err(ReadError::TooLarge(what)) => {
            let status = if what == "request body" { 413 } else { 431 };
            Response::error(status, &format!("the {what} is too large"))
        }
        Err(ReadError::Malformed(why)) => Response::error(400, &why),
    };
    let _ = response.write_to(&mut stream);
    let _ = stream.shutdown(std::net::Shutdown::Write);
}

fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(error) = std::process::Command::new(opener).arg(url).spawn() {
        eprintln!("engine: could not open a browser ({opener}: {error}); open {url} yourself");
    }
}

pub fn run(args: &ServeArgs) -> ExitCode {
    let listener = match TcpListener::bind((args.host, args.port)) {
        Ok(listener) => listener,
        Err(error) => {
            eprintln!(
                "engine: cannot listen on {}:{}: {error}",
                args.host, args.port
            );
            return ExitCode::from(2);
        }
    };
    let address = match listener.local_addr() {
        Ok(address) => address,
        Err(error) => {
            eprintln!("engine: cannot read the listening address: {error}");
            return ExitCode::from(2);
        }
    };
    if let Err(error) = games::token() {
        eprintln!("engine: {error}");
        return ExitCode::from(2);
    }
    let url = format!("http://{address}/");
    println!("Ox88 serves {url}");
    if !args.host.is_loopback() {
        eprintln!(
            "engine: warning: listening on {} — anyone who can reach this address can start \
             games here; a game itself is open only to its links",
            args.host
        );
    }
    if args.open {
        open_browser(&url);
    }
    let server = Arc::new(Server::default());
    let active = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        if active.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
            let mut stream = stream;
            let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
            let _ = Response::error(503, "too many connections; try again in a moment")
                .write_to(&mut stream);
            continue;
        }
        active.fetch_add(1, Ordering::SeqCst);
        let server = Arc::clone(&server);
        let counter = Arc::clone(&active);
        let spawned = std::thread::Builder::new()
            .name("serve-connection".to_string())
            .spawn(move || {
                serve_connection(&server, stream);
                counter.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            // No thread: the stream went with the closure and is closed; free its slot.
            active.fetch_sub(1, Ordering::SeqCst);
        }
    }
    ExitCode::SUCCESS
}
