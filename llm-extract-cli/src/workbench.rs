//! `llm-extract ui SUITE`: the workbench, a local page to edit a suite's assertions, preview
//! them against a case's output with the runner's own evaluator, save the file, and browse the
//! run history.
//!
//! The server listens on 127.0.0.1 only, serves its page from assets compiled into the binary
//! (no network needed), answers only requests addressed to that host (a DNS-rebinding page
//! cannot reach it), and takes posts only from its own page (`Origin`, `Sec-Fetch-Site`) with
//! a body of type `application/json` (a cross-site form cannot post to it). Every request
//! re-reads the suite from disk, so the page always shows the file as it is now; each runs
//! on the blocking pool, so a large preview does not hold up the others.

mod api;

use axum::extract::{Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::Value;
use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// The port used when `--port` is not given.
const DEFAULT_PORT: u16 = 8377;

/// Largest request body accepted (a suite with its outputs inline can be large, not huge).
const MAX_BODY: usize = 16 << 20;

const PAGE: &str = include_str!("workbench/page.html");
const SCRIPT: &str = include_str!("workbench/app.js");
const STYLE: &str = include_str!("workbench/style.css");

/// Arguments of `llm-extract ui`.
#[derive(clap::Args)]
pub struct Args {
    /// The suite file to edit (JSON or YAML)
    suite: PathBuf,
    /// The port on 127.0.0.1 (0: any free port)
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
    /// The run database (default: .llm-extract/runs.sqlite beside the suite)
    #[arg(long, value_name = "PATH")]
    db: Option<PathBuf>,
}

pub fn run(args: Args) -> ExitCode {
    if !args.suite.is_file() {
        eprintln!("error: no suite file at {}", args.suite.display());
        return ExitCode::from(2);
    }
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: cannot start the server: {e}");
            return ExitCode::from(1);
        }
    };
    let workbench = api::Workbench::new(args.suite, args.db);
    runtime.block_on(serve(workbench, args.port))
}

async fn serve(workbench: api::Workbench, port: u16) -> ExitCode {
    // Loopback only, by construction: the address is not configurable.
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let listener = match tokio::net::TcpListener::bind(address).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("error: cannot listen on {address}: {e} (pick another with --port, or --port 0 for any free one)");
            return ExitCode::from(1);
        }
    };
    let bound = listener.local_addr().unwrap_or(address);
    let suite = workbench.suite_display();
    let state = Arc::new(AppState {
        workbench,
        port: bound.port(),
    });
    {
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(
            stdout,
            "workbench for {suite} at http://{bound}/ (Ctrl-C to stop)"
        );
        let _ = stdout.flush();
    }
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    match axum::serve(listener, router(state))
        .with_graceful_shutdown(shutdown)
        .await
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: the server stopped: {e}");
            ExitCode::from(1)
        }
    }
}

struct AppState {
    workbench: api::Workbench,
    port: u16,
}

type Shared = State<Arc<AppState>>;

fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(|| asset(PAGE, "text/html; charset=utf-8")))
        .route(
            "/app.js",
            get(|| asset(SCRIPT, "text/javascript; charset=utf-8")),
        )
        .route(
            "/style.css",
            get(|| asset(STYLE, "text/css; charset=utf-8")),
        )
        .route("/api/suite", get(suite))
        .route("/api/check", post(check))
        .route("/api/preview", post(preview))
        .route("/api/save", post(save))
        .route("/api/runs", get(runs))
        .route("/api/diff", get(diff))
        .layer(axum::middleware::from_fn_with_state(state.clone(), guard))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

async fn asset(body: &'static str, content_type: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        body,
    )
        .into_response()
}

async fn guard(State(state): Shared, request: Request, next: Next) -> Response {
    match refusal(request.method(), request.headers(), state.port) {
        Some((status, message)) => api::failure(status, message),
        None => next.run(request).await,
    }
}

/// Why a request is refused, if it is: one addressed to another host name (DNS rebinding); a
/// post from another page (its `Origin` or `Sec-Fetch-Site` says so; a request without them
/// comes from a program, not a browser page); a post whose body is not `application/json`
/// (a cross-site form can send `text/plain` without asking; JSON needs a preflight we never
/// answer).
fn refusal(method: &Method, headers: &HeaderMap, port: u16) -> Option<(StatusCode, String)> {
    let header = |name: header::HeaderName| headers.get(name).and_then(|h| h.to_str().ok());
    let host = header(header::HOST).unwrap_or("");
    let hosts = [format!("127.0.0.1:{port}"), format!("localhost:{port}")];
    if !hosts.iter().any(|h| h == host) {
        let message = format!(
            "the workbench answers only requests to http://127.0.0.1:{port}/ (Host was `{host}`)"
        );
        return Some((StatusCode::FORBIDDEN, message));
    }
    if method != Method::POST {
        return None;
    }
    if let Some(origin) = header(header::ORIGIN) {
        if !hosts.iter().any(|h| origin == format!("http://{h}")) {
            let message = format!(
                "the workbench takes posts only from its own page at http://127.0.0.1:{port}/ (Origin was `{origin}`)"
            );
            return Some((StatusCode::FORBIDDEN, message));
        }
    }
    if let Some(site) = header(header::HeaderName::from_static("sec-fetch-site")) {
        if !matches!(site, "same-origin" | "none") {
            let message = format!(
                "the workbench takes posts only from its own page (Sec-Fetch-Site was `{site}`)"
            );
            return Some((StatusCode::FORBIDDEN, message));
        }
    }
    if !header(header::CONTENT_TYPE).is_some_and(is_json) {
        let message = "send the body as JSON with Content-Type: application/json".to_string();
        return Some((StatusCode::UNSUPPORTED_MEDIA_TYPE, message));
    }
    None
}

/// Whether a `Content-Type` is exactly `application/json`, with parameters or not
/// (`application/json; charset=utf-8`), but not a longer type (`application/jsonp`).
fn is_json(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    essence.eq_ignore_ascii_case("application/json")
}

/// Runs `work` (which reads files and evaluates) on the blocking pool, so that one slow
/// request (a preview of a large output) does not hold up the others.
async fn blocking(work: impl FnOnce() -> Result<Value, api::Failure> + Send + 'static) -> Response {
    match tokio::task::spawn_blocking(work).await {
        Ok(result) => api::reply(result),
        Err(e) => api::failure(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the request failed: {e}"),
        ),
    }
}

async fn suite(State(state): Shared) -> Response {
    blocking(move || Ok(state.workbench.suite())).await
}

async fn check(State(state): Shared, body: axum::body::Bytes) -> Response {
    blocking(move || state.workbench.check(&body)).await
}

async fn preview(State(state): Shared, body: axum::body::Bytes) -> Response {
    blocking(move || state.workbench.preview(&body)).await
}

async fn save(State(state): Shared, body: axum::body::Bytes) -> Response {
    blocking(move || state.workbench.save(&body)).await
}

async fn runs(State(state): Shared) -> Response {
    blocking(move || state.workbench.runs()).await
}

async fn diff(State(state): Shared, Query(query): Query<api::DiffQuery>) -> Response {
    blocking(move || state.workbench.diff(&query)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn only_exactly_json_is_json() {
        for ok in [
            "application/json",
            "application/json; charset=utf-8",
            "Application/JSON",
        ] {
            assert!(is_json(ok), "{ok}");
        }
        for bad in [
            "application/jsonp",
            "application/json-patch+json",
            "text/plain",
            "",
            "application/x-json",
        ] {
            assert!(!is_json(bad), "{bad}");
        }
    }

    #[test]
    fn posts_from_another_page_are_refused() {
        let own = [
            ("host", "127.0.0.1:8377"),
            ("content-type", "application/json"),
        ];
        assert_eq!(refusal(&Method::POST, &headers(&own), 8377), None);
        let from_page = [
            ("host", "127.0.0.1:8377"),
            ("content-type", "application/json"),
            ("origin", "http://127.0.0.1:8377"),
            ("sec-fetch-site", "same-origin"),
        ];
        assert_eq!(refusal(&Method::POST, &headers(&from_page), 8377), None);
        let foreign = [
            [
                ("origin", "http://evil.example"),
                ("sec-fetch-site", "same-origin"),
            ],
            [
                ("origin", "http://127.0.0.1:8378"),
                ("sec-fetch-site", "same-origin"),
            ],
            [
                ("origin", "http://127.0.0.1:8377"),
                ("sec-fetch-site", "cross-site"),
            ],
            [("origin", "null"), ("sec-fetch-site", "same-site")],
        ];
        for pair in foreign {
            let mut h = headers(&own);
            h.extend(headers(&pair));
            let (status, message) = refusal(&Method::POST, &h, 8377).expect("refused");
            assert_eq!(status, StatusCode::FORBIDDEN, "{message}");
        }
        // A read from another page is not a write: only posts are checked.
        let get = [("host", "localhost:8377"), ("sec-fetch-site", "cross-site")];
        assert_eq!(refusal(&Method::GET, &headers(&get), 8377), None);
    }
}
