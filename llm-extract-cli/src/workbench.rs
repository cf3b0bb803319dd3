//! `llm-extract ui SUITE`: the workbench, a local page to edit a suite's assertions, preview
//! them against a case's output with the runner's own evaluator, save the file, and browse the
//! run history.
//!
//! The server listens on 127.0.0.1 only, serves its page from assets compiled into the binary
//! (no network needed), answers only requests addressed to that host (a DNS-rebinding page
//! cannot reach it) and takes JSON bodies only (a cross-site form cannot post to it). Every
//! request re-reads the suite from disk, so the page always shows the file as it is now.

mod api;

use axum::extract::{Query, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
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

/// Refuses requests addressed to another host name (DNS rebinding) and posts that are not
/// JSON (a cross-site form can send text/plain without asking; JSON needs a preflight we never
/// answer).
async fn guard(State(state): Shared, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let allowed = [
        format!("127.0.0.1:{}", state.port),
        format!("localhost:{}", state.port),
    ];
    if !allowed.iter().any(|a| a == host) {
        return api::failure(
            StatusCode::FORBIDDEN,
            format!(
                "the workbench answers only requests to http://127.0.0.1:{}/ (Host was `{host}`)",
                state.port
            ),
        );
    }
    if request.method() == Method::POST {
        let json = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|h| h.to_str().ok())
            .is_some_and(|t| t.starts_with("application/json"));
        if !json {
            return api::failure(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "send the body as JSON with Content-Type: application/json".to_string(),
            );
        }
    }
    next.run(request).await
}

async fn suite(State(state): Shared) -> Response {
    api::reply(Ok(state.workbench.suite()))
}

async fn check(State(state): Shared, body: axum::body::Bytes) -> Response {
    api::reply(state.workbench.check(&body))
}

async fn preview(State(state): Shared, body: axum::body::Bytes) -> Response {
    api::reply(state.workbench.preview(&body))
}

async fn save(State(state): Shared, body: axum::body::Bytes) -> Response {
    api::reply(state.workbench.save(&body))
}

async fn runs(State(state): Shared) -> Response {
    api::reply(state.workbench.runs())
}

async fn diff(State(state): Shared, Query(query): Query<api::DiffQuery>) -> Response {
    api::reply(state.workbench.diff(&query))
}
