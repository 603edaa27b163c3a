//! [`ProblemApp`]: the error pipeline, the route table and the server
//! wrapper together (spec, "Configuration errors", `listen()`).
//!
//! ```
//! use actix_web::{test, App, HttpResponse};
//! use problem_core::server::ProblemApp;
//!
//! # actix_web::rt::System::new().block_on(async {
//! let app = ProblemApp::builder()
//!     .development(false)
//!     .routes(|r| r.get("/books", || async { HttpResponse::Ok().json(["Dune"]) }))
//!     .build()
//!     .unwrap();
//! let a = app.clone();
//! let svc = test::init_service(App::new().configure(move |c| a.configure(c)).wrap(app.pipeline())).await;
//! let res = test::call_service(&svc, test::TestRequest::get().uri("/books").to_request()).await;
//! assert_eq!(test::read_body(res).await, r#"["Dune"]"#);
//! # });
//! ```

use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;

use actix_web::middleware::Condition;
use actix_web::web::{self, ServiceConfig};
use actix_web::{App, HttpRequest, HttpResponse, HttpServer};

use crate::HttpConfigError;
use crate::pipeline::{ConditionalRequests, ErrorContext, LogSink, Pipeline, PipelineBuilder};
use crate::problem::{DocumentedProblem, Problem};
use crate::routing::{IntoRoutes, Routes, Versioned};
use crate::version::{VersionConfig, Versioning};

pub use crate::spec::DEFAULT_MAX_REQUEST_BODY_SIZE;

type Configure = Arc<dyn Fn(&mut ServiceConfig) + Send + Sync>;

/// An application: the error [`Pipeline`] around a [`Routes`] table, served
/// by [`listen`](ProblemApp::listen) or installed into an existing actix-web
/// `App` with [`pipeline`](ProblemApp::pipeline) and
/// [`configure`](ProblemApp::configure).
///
/// ```no_run
/// use actix_web::HttpResponse;
/// use problem_core::server::ProblemApp;
///
/// async fn list() -> HttpResponse { HttpResponse::Ok().json(["Dune"]) }
///
/// # async fn run() -> Result<(), problem_core::HttpConfigError> {
/// let app = ProblemApp::builder()
///     .tag("catalog")
///     .development(false)
///     .allowed_hosts(["localhost", "127.0.0.1"])
///     .routes(|r| r.get("/books", list))
///     .build()?;
/// app.listen("127.0.0.1:8080").await?;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct ProblemApp {
    pipeline: Pipeline,
    routes: Arc<Routes>,
    configure: Vec<Configure>,
    max_request_body_size: usize,
    versioning: Option<Versioning>,
    conditional: ConditionalRequests,
}

impl std::fmt::Debug for ProblemApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProblemApp")
            .field("pipeline", &self.pipeline)
            .field("routes", &self.routes)
            .field("max_request_body_size", &self.max_request_body_size)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for ProblemAppBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProblemAppBuilder")
            .field("pipeline", &self.pipeline)
            .field("routes", &self.routes)
            .field("max_request_body_size", &self.max_request_body_size)
            .field("versioning", &self.versioning)
            .field("conditional", &self.conditional)
            .field("problem_types", &self.problem_types)
            .finish_non_exhaustive()
    }
}

/// Builds a [`ProblemApp`].
///
/// ```
/// use problem_core::HttpConfigError;
/// use problem_core::server::ProblemApp;
///
/// // A mistake is an error at build, never a 500 at run time.
/// let err = ProblemApp::builder().allowed_hosts(["bad host!"]).build().unwrap_err();
/// assert!(matches!(err, HttpConfigError::InvalidListenOption(_)));
/// ```
pub struct ProblemAppBuilder {
    pipeline: PipelineBuilder,
    routes: Routes,
    configure: Vec<Configure>,
    max_request_body_size: usize,
    versioning: Option<VersionConfig>,
    conditional: ConditionalRequests,
    /// The pages already served ([`ProblemAppBuilder::problem_type`]): each
    /// path as routed (decoded as the router decodes request paths) and
    /// the type it documents.
    problem_types: Vec<(String, &'static str)>,
    /// A `Cache-Control` value that is no header value, reported by `build()`.
    invalid_cache_control: Option<String>,
    /// Why a problem type's page cannot be served, reported by `build()`.
    invalid_problem_type: Option<String>,
}

/// Options of [`ProblemApp::listen_with`].
///
/// ```
/// use problem_core::HttpConfigError;
/// use problem_core::server::{ListenOptions, ProblemApp};
///
/// let app = ProblemApp::builder().development(false).build().unwrap();
/// let Err(err) = app.bind("127.0.0.1:0", ListenOptions { workers: Some(0) }) else {
///     panic!("zero workers are refused")
/// };
/// assert_eq!(err, HttpConfigError::InvalidListenOption("workers must be at least 1".into()));
/// ```
#[derive(Debug, Clone, Default)]
pub struct ListenOptions {
    /// Worker threads; default: actix-web's (one per core). At least 1 and
    /// at most [`MAX_WORKERS`] (512).
    pub workers: Option<usize>,
}

/// The most worker threads [`ListenOptions::workers`] may ask for: 512,
/// actix-server's own limit (its builder panics above it; `bind` and
/// `listen_with` answer [`HttpConfigError::InvalidListenOption`] instead).
///
/// ```
/// use problem_core::HttpConfigError;
/// use problem_core::server::{ListenOptions, MAX_WORKERS, ProblemApp};
///
/// assert_eq!(MAX_WORKERS, 512);
/// let app = ProblemApp::builder().development(false).build().unwrap();
/// let Err(err) = app.bind("127.0.0.1:0", ListenOptions { workers: Some(MAX_WORKERS + 1) }) else {
///     panic!("513 workers are refused")
/// };
/// assert_eq!(
///     err,
///     HttpConfigError::InvalidListenOption("workers must be at most 512 (actix-server's limit), not 513".into())
/// );
/// ```
pub const MAX_WORKERS: usize = 512;

impl ProblemApp {
    /// A builder; see [`ProblemAppBuilder`].
    ///
    /// ```
    /// use problem_core::server::ProblemApp;
    /// let app = ProblemApp::builder().tag("catalog").development(false).build().unwrap();
    /// assert_eq!(app.pipeline().tag(), "catalog");
    /// ```
    pub fn builder() -> ProblemAppBuilder {
        ProblemAppBuilder {
            pipeline: Pipeline::builder(),
            routes: Routes::new(),
            configure: Vec::new(),
            max_request_body_size: DEFAULT_MAX_REQUEST_BODY_SIZE,
            versioning: None,
            conditional: ConditionalRequests::new(),
            problem_types: Vec::new(),
            invalid_cache_control: None,
            invalid_problem_type: None,
        }
    }

    /// The API-versioning middleware (a no-op without
    /// [`ProblemAppBuilder::versioning`]): wrap it inside the pipeline,
    /// `App::new().configure(..).wrap(app.versioning()).wrap(app.pipeline())`.
    ///
    /// ```
    /// use actix_web::{test, App, HttpResponse};
    /// use problem_core::server::ProblemApp;
    /// use problem_core::version::{V3, VersionConfig, VersionStrategy};
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let versions = VersionConfig::builder(VersionStrategy::header()).default_version(V3).build().unwrap();
    /// let app = ProblemApp::builder()
    ///     .development(false)
    ///     .versioning(versions)
    ///     .routes(|r| r.get("/b", || async { HttpResponse::Ok().finish() }))
    ///     .build()
    ///     .unwrap();
    /// let a = app.clone();
    /// let svc = test::init_service(
    ///     App::new().configure(move |c| a.configure(c)).wrap(app.versioning()).wrap(app.pipeline()),
    /// )
    /// .await;
    /// let res = test::call_service(&svc, test::TestRequest::get().uri("/b").to_request()).await;
    /// assert_eq!(res.headers().get("x-api-version").unwrap(), "3");
    /// # });
    /// ```
    pub fn versioning(&self) -> Condition<Versioning> {
        match &self.versioning {
            Some(v) => Condition::new(true, v.clone()),
            None => Condition::new(false, Versioning::new(VersionConfig::default())),
        }
    }

    /// The error pipeline middleware: wrap it outside the versioning
    /// middleware, `App::new().configure(..).wrap(app.versioning()).wrap(app.pipeline())`.
    ///
    /// ```
    /// use actix_web::{test, App, HttpResponse};
    /// use problem_core::server::ProblemApp;
    /// use problem_core::NotFoundException;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let app = ProblemApp::builder()
    ///     .development(false)
    ///     .routes(|r| r.get("/b/{id}", || async {
    ///         Err::<HttpResponse, _>(NotFoundException::new().with_detail("Book 7 not found"))
    ///     }))
    ///     .build()
    ///     .unwrap();
    /// let a = app.clone();
    /// let svc = test::init_service(App::new().configure(move |c| a.configure(c)).wrap(app.pipeline())).await;
    /// let res = test::call_service(&svc, test::TestRequest::get().uri("/b/7").to_request()).await;
    /// assert_eq!(
    ///     test::read_body(res).await,
    ///     r#"{"type":"about:blank","title":"Not Found","status":404,"detail":"Book 7 not found","instance":"/b/7"}"#
    /// );
    /// # });
    /// ```
    pub fn pipeline(&self) -> Pipeline {
        self.pipeline.clone()
    }

    /// The conditional-request middleware (`ETag`, `If-None-Match` → 304,
    /// `HEAD` bodies; RFC 9110 §13; see [`ConditionalRequests`]): wrap it
    /// outermost, `App::new().configure(..).wrap(app.versioning()).wrap(app.pipeline()).wrap(app.conditional())`.
    /// [`listen`](Self::listen) and [`bind`](Self::bind) install it.
    ///
    /// ```
    /// use actix_web::{test, App, HttpResponse};
    /// use problem_core::server::ProblemApp;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let app = ProblemApp::builder()
    ///     .development(false)
    ///     .cache_control("no-cache")
    ///     .routes(|r| r.get("/b", || async { HttpResponse::Ok().body("Dune") }))
    ///     .build()
    ///     .unwrap();
    /// let a = app.clone();
    /// let svc = test::init_service(
    ///     App::new()
    ///         .configure(move |c| a.configure(c))
    ///         .wrap(app.versioning())
    ///         .wrap(app.pipeline())
    ///         .wrap(app.conditional()),
    /// )
    /// .await;
    /// let res = test::call_service(&svc, test::TestRequest::default().method(actix_web::http::Method::HEAD).uri("/b").to_request()).await;
    /// assert_eq!(res.status(), 200);
    /// assert_eq!(res.headers().get("content-length").unwrap(), "4");
    /// assert_eq!(res.headers().get("cache-control").unwrap(), "no-cache");
    /// assert!(res.headers().contains_key("etag"));
    /// assert!(test::read_body(res).await.is_empty());
    /// # });
    /// ```
    pub fn conditional(&self) -> ConditionalRequests {
        self.conditional.clone()
    }

    /// Registers the routes, the 404/405 answers, extra configuration and
    /// body limits of actix-web's own extractors (set to
    /// `max_request_body_size`) into an actix-web `App`.
    ///
    /// The route table is given this app's pipeline flag: once
    /// [`pipeline`](Self::pipeline) is wrapped around the `App` (actix-web
    /// builds the middleware at setup, before the first request), the 404
    /// and 405 documents are rendered once, by the pipeline; without it
    /// they answer their standalone documents.
    ///
    /// ```
    /// use actix_web::{test, App, HttpResponse};
    /// use problem_core::server::ProblemApp;
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let app = ProblemApp::builder()
    ///     .development(false)
    ///     .routes(|r| r.get("/b", || async { HttpResponse::Ok().finish() }))
    ///     .build()
    ///     .unwrap();
    /// let a = app.clone();
    /// let svc = test::init_service(App::new().configure(move |c| a.configure(c)).wrap(app.pipeline())).await;
    /// let req = test::TestRequest::delete().uri("/b").to_request();
    /// let res = test::call_service(&svc, req).await;
    /// assert_eq!(res.status(), 405);
    /// assert_eq!(res.headers().get("allow").unwrap(), "GET, HEAD, OPTIONS");
    /// # });
    /// ```
    pub fn configure(&self, cfg: &mut ServiceConfig) {
        let limit = self.max_request_body_size;
        cfg.app_data(web::JsonConfig::default().limit(limit))
            .app_data(web::FormConfig::default().limit(limit))
            .app_data(web::PayloadConfig::new(limit))
            .app_data(crate::pipeline::BodyConfig { limit })
            // For the `Collection` extractor's random-cursor-key warning,
            // logged through this application's logger.
            .app_data(self.pipeline.clone());
        for f in &self.configure {
            f(cfg);
        }
        self.routes.register_with(cfg, self.pipeline.installed());
    }

    /// Serves the application on `addr` until the server stops.
    ///
    /// # Errors
    /// [`HttpConfigError`] when the address is invalid or cannot be bound.
    ///
    /// ```no_run
    /// use problem_core::server::ProblemApp;
    ///
    /// #[actix_web::main]
    /// async fn main() -> Result<(), problem_core::HttpConfigError> {
    ///     ProblemApp::builder().tag("catalog").build()?.listen("127.0.0.1:8080").await
    /// }
    /// ```
    pub async fn listen(self, addr: &str) -> Result<(), HttpConfigError> {
        self.listen_with(addr, ListenOptions::default()).await
    }

    /// Serves the application on `addr` with options until the server stops.
    ///
    /// # Errors
    /// [`HttpConfigError`] when an option is invalid or the address cannot
    /// be bound.
    ///
    /// ```no_run
    /// use problem_core::server::{ListenOptions, ProblemApp};
    ///
    /// #[actix_web::main]
    /// async fn main() -> Result<(), problem_core::HttpConfigError> {
    ///     let app = ProblemApp::builder().tag("catalog").build()?;
    ///     app.listen_with("127.0.0.1:8080", ListenOptions { workers: Some(2) }).await
    /// }
    /// ```
    pub async fn listen_with(
        self,
        addr: &str,
        options: ListenOptions,
    ) -> Result<(), HttpConfigError> {
        let (server, _) = self.bind(addr, options)?;
        server.await.map_err(|e| HttpConfigError::Io(e.to_string()))
    }

    /// Binds the server without running it; returns it and its bound
    /// addresses (useful with port 0). Warns through the pipeline's logger
    /// when development is on and an address is not loopback.
    ///
    /// # Errors
    /// [`HttpConfigError::InvalidListenOption`] for a bad address, zero
    /// workers or more than [`MAX_WORKERS`]; [`HttpConfigError::Io`] when binding fails.
    ///
    /// ```
    /// use problem_core::server::{ListenOptions, ProblemApp};
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let app = ProblemApp::builder().development(false).build().unwrap();
    /// let (server, addrs) = app.bind("127.0.0.1:0", ListenOptions { workers: Some(1) }).unwrap();
    /// assert!(addrs[0].ip().is_loopback() && addrs[0].port() != 0);
    /// let handle = server.handle();
    /// actix_web::rt::spawn(server);
    /// handle.stop(true).await;
    /// # });
    /// ```
    pub fn bind(
        self,
        addr: &str,
        options: ListenOptions,
    ) -> Result<(actix_web::dev::Server, Vec<SocketAddr>), HttpConfigError> {
        let addrs: Vec<SocketAddr> = addr
            .to_socket_addrs()
            .map_err(|e| HttpConfigError::InvalidListenOption(format!("address `{addr}`: {e}")))?
            .collect();
        if addrs.is_empty() {
            return Err(HttpConfigError::InvalidListenOption(format!(
                "address `{addr}` resolves to nothing"
            )));
        }
        match options.workers {
            Some(0) => {
                return Err(HttpConfigError::InvalidListenOption(
                    "workers must be at least 1".into(),
                ));
            }
            Some(n) if n > MAX_WORKERS => {
                return Err(HttpConfigError::InvalidListenOption(format!(
                    "workers must be at most {MAX_WORKERS} (actix-server's limit), not {n}"
                )));
            }
            _ => {}
        }
        if self.pipeline.development()
            && let Some(public) = addrs.iter().find(|a| !a.ip().is_loopback())
        {
            self.pipeline.warn(&format!(
                    "development mode is on and the server listens on {public}, which is not a loopback address: 5xx details are sent to clients"
                ));
        }
        let app = self.clone();
        let mut server = HttpServer::new(move || {
            let pipeline = app.pipeline();
            let versioning = app.versioning();
            let conditional = app.conditional();
            let app = app.clone();
            App::new()
                .configure(move |cfg| app.configure(cfg))
                .wrap(versioning)
                .wrap(pipeline)
                .wrap(conditional)
        });
        if let Some(w) = options.workers {
            server = server.workers(w);
        }
        let server = server
            .bind(&addrs[..])
            .map_err(|e| HttpConfigError::Io(format!("cannot bind {addr}: {e}")))?;
        let bound = server.addrs();
        Ok((server.run(), bound))
    }
}

impl ProblemAppBuilder {
    /// The log tag (`[catalog]`); see [`PipelineBuilder::tag`].
    ///
    /// ```
    /// use problem_core::server::ProblemApp;
    /// let app = ProblemApp::builder().tag("catalog").development(false).build().unwrap();
    /// assert_eq!(app.pipeline().tag(), "catalog");
    /// ```
    pub fn tag(mut self, tag: impl Into<String>) -> Self {
        self.pipeline = self.pipeline.tag(tag);
        self
    }

    /// Development mode; default `NODE_ENV == "development"`.
    ///
    /// ```
    /// use problem_core::server::ProblemApp;
    /// let app = ProblemApp::builder().development(true).build().unwrap();
    /// assert!(app.pipeline().development());
    /// ```
    pub fn development(mut self, on: bool) -> Self {
        self.pipeline = self.pipeline.development(on);
        self
    }

    /// The logger; default `tracing`.
    ///
    /// ```
    /// use problem_core::pipeline::TracingLogger;
    /// use problem_core::server::ProblemApp;
    /// // Every 5xx is one line through `tracing`, at `error`, target `problem_core`.
    /// let app = ProblemApp::builder().development(false).logger(TracingLogger).build().unwrap();
    /// ```
    pub fn logger(mut self, logger: impl LogSink) -> Self {
        self.pipeline = self.pipeline.logger(logger);
        self
    }

    /// A shared logger (e.g. a `MemoryLogger` a test keeps).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use actix_web::HttpResponse;
    /// use problem_core::InternalServerErrorException;
    /// use problem_core::pipeline::MemoryLogger;
    /// use problem_core::server::ProblemApp;
    /// # use actix_web::{test, App};
    /// # async fn serve(app: problem_core::server::ProblemApp) -> impl actix_web::dev::Service<actix_http::Request, Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, Error = actix_web::Error> {
    /// #     let a = app.clone();
    /// #     test::init_service(App::new().configure(move |c| a.configure(c)).wrap(app.versioning()).wrap(app.pipeline()).wrap(app.conditional())).await
    /// # }
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let logger = Arc::new(MemoryLogger::default());
    /// let app = ProblemApp::builder()
    ///     .tag("catalog")
    ///     .development(false)
    ///     .shared_logger(logger.clone())
    ///     .routes(|r| r.get("/boom", || async { Err::<HttpResponse, _>(InternalServerErrorException::new().with_detail("disk full")) }))
    ///     .build()
    ///     .unwrap();
    /// let svc = serve(app).await;
    /// let res = test::call_service(&svc, test::TestRequest::get().uri("/boom").to_request()).await;
    /// let body: serde_json::Value = test::read_body_json(res).await;
    /// let id = body["correlationId"].as_str().unwrap();
    /// assert_eq!(
    ///     logger.entries()[0].message,
    ///     format!("[catalog] 500 on GET /boom (correlation id {id}): InternalServerErrorException: disk full")
    /// );
    /// # });
    /// ```
    pub fn shared_logger(mut self, logger: Arc<dyn LogSink>) -> Self {
        self.pipeline = self.pipeline.shared_logger(logger);
        self
    }

    /// Only these hosts are served; others get 421, and a `Host` that is no
    /// valid host and port (`localhost:abc`) the 400 `The requested host is
    /// not valid.` (RFC 9112 §3.2).
    ///
    /// ```
    /// use actix_web::HttpResponse;
    /// use problem_core::server::ProblemApp;
    /// # use actix_web::{test, App};
    /// # async fn serve(app: problem_core::server::ProblemApp) -> impl actix_web::dev::Service<actix_http::Request, Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, Error = actix_web::Error> {
    /// #     let a = app.clone();
    /// #     test::init_service(App::new().configure(move |c| a.configure(c)).wrap(app.versioning()).wrap(app.pipeline()).wrap(app.conditional())).await
    /// # }
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let app = ProblemApp::builder()
    ///     .development(false)
    ///     .allowed_hosts(["api.example.com"])
    ///     .routes(|r| r.get("/b", || async { HttpResponse::Ok().finish() }))
    ///     .build()
    ///     .unwrap();
    /// let svc = serve(app).await;
    /// let req = test::TestRequest::get().uri("/b").insert_header(("Host", "evil.example"));
    /// let res = test::call_service(&svc, req.to_request()).await;
    /// assert_eq!(res.status(), 421);
    /// let req = test::TestRequest::get().uri("/b").insert_header(("Host", "api.example.com"));
    /// assert_eq!(test::call_service(&svc, req.to_request()).await.status(), 200);
    /// # });
    /// ```
    pub fn allowed_hosts<I, S>(mut self, hosts: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.pipeline = self.pipeline.allowed_hosts(hosts);
        self
    }

    /// Bodies over `bytes` get an empty 413 (default 1 MiB).
    ///
    /// ```
    /// use actix_web::HttpResponse;
    /// use problem_core::server::ProblemApp;
    /// # use actix_web::{test, App};
    /// # async fn serve(app: problem_core::server::ProblemApp) -> impl actix_web::dev::Service<actix_http::Request, Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, Error = actix_web::Error> {
    /// #     let a = app.clone();
    /// #     test::init_service(App::new().configure(move |c| a.configure(c)).wrap(app.versioning()).wrap(app.pipeline()).wrap(app.conditional())).await
    /// # }
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let app = ProblemApp::builder()
    ///     .development(false)
    ///     .max_request_body_size(8)
    ///     .routes(|r| r.post("/b", |body: String| async move { HttpResponse::Ok().body(body) }))
    ///     .build()
    ///     .unwrap();
    /// let svc = serve(app).await;
    /// let req = test::TestRequest::post().uri("/b").set_payload("0123456789");
    /// let res = test::call_service(&svc, req.to_request()).await;
    /// assert_eq!(res.status(), 413);
    /// assert!(test::read_body(res).await.is_empty());
    /// # });
    /// ```
    pub fn max_request_body_size(mut self, bytes: usize) -> Self {
        self.max_request_body_size = bytes;
        self
    }

    /// A request body not fully received within `timeout` of its first
    /// read gets a 408 problem and the connection is closed (default
    /// 30 s); see
    /// [`PipelineBuilder::body_timeout`].
    ///
    /// ```
    /// use std::time::Duration;
    /// use problem_core::server::ProblemApp;
    ///
    /// assert!(ProblemApp::builder().body_timeout(Duration::from_secs(10)).build().is_ok());
    /// // Zero is a configuration error at build.
    /// assert!(ProblemApp::builder().body_timeout(Duration::ZERO).build().is_err());
    /// ```
    pub fn body_timeout(mut self, timeout: std::time::Duration) -> Self {
        self.pipeline = self.pipeline.body_timeout(timeout);
        self
    }

    /// An exception filter for problem type `E`; see [`PipelineBuilder::filter`].
    ///
    /// ```
    /// use actix_web::HttpResponse;
    /// use problem_core::{NotFoundException, Problem};
    /// use problem_core::server::ProblemApp;
    /// # use actix_web::{test, App};
    /// # async fn serve(app: problem_core::server::ProblemApp) -> impl actix_web::dev::Service<actix_http::Request, Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, Error = actix_web::Error> {
    /// #     let a = app.clone();
    /// #     test::init_service(App::new().configure(move |c| a.configure(c)).wrap(app.versioning()).wrap(app.pipeline()).wrap(app.conditional())).await
    /// # }
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let app = ProblemApp::builder()
    ///     .development(false)
    ///     .filter::<NotFoundException, _>(|err, ctx| {
    ///         HttpResponse::NotFound().body(format!("{} ({})", err.title(), ctx.instance()))
    ///     })
    ///     .routes(|r| r.get("/b", || async { Err::<HttpResponse, _>(NotFoundException::new()) }))
    ///     .build()
    ///     .unwrap();
    /// let svc = serve(app).await;
    /// let res = test::call_service(&svc, test::TestRequest::get().uri("/b").to_request()).await;
    /// assert_eq!(test::read_body(res).await, "Not Found (/b)");
    /// # });
    /// ```
    pub fn filter<E, F>(mut self, filter: F) -> Self
    where
        E: Problem,
        F: Fn(&E, &ErrorContext<'_>) -> HttpResponse + Send + Sync + 'static,
    {
        self.pipeline = self.pipeline.filter::<E, F>(filter);
        self
    }

    /// An exception filter for a foreign error type; see
    /// [`PipelineBuilder::filter_error`].
    ///
    /// ```
    /// use actix_web::HttpResponse;
    /// use problem_core::server::ProblemApp;
    /// # use actix_web::{test, App};
    /// # async fn serve(app: problem_core::server::ProblemApp) -> impl actix_web::dev::Service<actix_http::Request, Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, Error = actix_web::Error> {
    /// #     let a = app.clone();
    /// #     test::init_service(App::new().configure(move |c| a.configure(c)).wrap(app.versioning()).wrap(app.pipeline()).wrap(app.conditional())).await
    /// # }
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let app = ProblemApp::builder()
    ///     .development(false)
    ///     .filter_error::<std::io::Error, _>(|err, _ctx| {
    ///         HttpResponse::ServiceUnavailable().body(format!("storage: {err}"))
    ///     })
    ///     .routes(|r| r.get("/b", || async { Err::<HttpResponse, _>(std::io::Error::other("disk full")) }))
    ///     .build()
    ///     .unwrap();
    /// let svc = serve(app).await;
    /// let res = test::call_service(&svc, test::TestRequest::get().uri("/b").to_request()).await;
    /// assert_eq!(res.status(), 503);
    /// assert_eq!(test::read_body(res).await, "storage: disk full");
    /// # });
    /// ```
    pub fn filter_error<E, F>(mut self, filter: F) -> Self
    where
        E: actix_web::ResponseError + 'static,
        F: Fn(&E, &ErrorContext<'_>) -> HttpResponse + Send + Sync + 'static,
    {
        self.pipeline = self.pipeline.filter_error::<E, F>(filter);
        self
    }

    /// Adds routes: the closure gets the table and returns it, or the
    /// [`AddedRoute`](crate::routing::AddedRoute) its last `get`, `post`,
    /// ... (or `guarded`) returned ([`IntoRoutes`]): the last call ends
    /// the closure without a `;` (with one, the closure returns `()`, a
    /// compile error that says so).
    ///
    /// ```
    /// use actix_web::HttpResponse;
    /// use problem_core::server::ProblemApp;
    /// # use actix_web::{test, App};
    /// # async fn serve(app: problem_core::server::ProblemApp) -> impl actix_web::dev::Service<actix_http::Request, Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, Error = actix_web::Error> {
    /// #     let a = app.clone();
    /// #     test::init_service(App::new().configure(move |c| a.configure(c)).wrap(app.versioning()).wrap(app.pipeline()).wrap(app.conditional())).await
    /// # }
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let app = ProblemApp::builder()
    ///     .development(false)
    ///     .routes(|r| r.get("/books", || async { HttpResponse::Ok().body("[]") }).post("/books", || async { HttpResponse::Created().finish() }))
    ///     .build()
    ///     .unwrap();
    /// let svc = serve(app).await;
    /// assert_eq!(test::call_service(&svc, test::TestRequest::post().uri("/books").to_request()).await.status(), 201);
    /// let res = test::call_service(&svc, test::TestRequest::get().uri("/nope").to_request()).await;
    /// assert_eq!(
    ///     test::read_body(res).await,
    ///     r#"{"type":"about:blank","title":"Not Found","status":404,"detail":"No route for GET /nope","instance":"/nope"}"#
    /// );
    /// # });
    /// ```
    pub fn routes<R: IntoRoutes>(mut self, f: impl FnOnce(Routes) -> R) -> Self {
        self.routes = f(self.routes).into_routes();
        self
    }

    /// API versioning for every route (spec, "Versioning"): the version is
    /// resolved once per request, the URL segment removed before routing,
    /// and the version headers added to every response, problem responses
    /// included (the pipeline's own answers before versioning runs too:
    /// more than 1000 query parameters, a chunked body that cannot be read
    /// or arrives too slowly, the 421 of a host this server does not
    /// serve), with `Vary` naming the request headers the strategy reads
    /// (RFC 9110 §12.5.5; [`Versioning::vary`]). Paths marked neutral in
    /// the configuration are left alone.
    ///
    /// ```
    /// use actix_web::HttpResponse;
    /// use problem_core::server::ProblemApp;
    /// use problem_core::version::{ApiVersion, V2, V3, VersionConfig, VersionStrategy};
    /// # use actix_web::{test, App};
    /// # async fn serve(app: problem_core::server::ProblemApp) -> impl actix_web::dev::Service<actix_http::Request, Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, Error = actix_web::Error> {
    /// #     let a = app.clone();
    /// #     test::init_service(App::new().configure(move |c| a.configure(c)).wrap(app.versioning()).wrap(app.pipeline()).wrap(app.conditional())).await
    /// # }
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let versions = VersionConfig::builder(VersionStrategy::header_named("X-API-Version"))
    ///     .default_version(V3)
    ///     .supported_versions([V2, V3])
    ///     .build()
    ///     .unwrap();
    /// let app = ProblemApp::builder()
    ///     .development(false)
    ///     .versioning(versions)
    ///     .routes(|r| r.get("/v", |v: ApiVersion| async move { HttpResponse::Ok().body(v.to_string()) }))
    ///     .build()
    ///     .unwrap();
    /// let svc = serve(app).await;
    /// let req = test::TestRequest::get().uri("/v").insert_header(("X-API-Version", "2"));
    /// let res = test::call_service(&svc, req.to_request()).await;
    /// assert_eq!(res.headers().get("x-api-version").unwrap(), "2");
    /// assert_eq!(res.headers().get("vary").unwrap(), "X-API-Version");
    /// assert_eq!(test::read_body(res).await, "2.0");
    /// # });
    /// ```
    pub fn versioning(mut self, config: VersionConfig) -> Self {
        self.versioning = Some(config);
        self
    }

    /// Serves the documentation of problem type `P` (RFC 9457 §3.1.1: a
    /// `type` URI, dereferenced, documents the problem type): each case
    /// whose `type` is a path on this origin (`/problems/duplicate-isbn`)
    /// answers `GET` (and so `HEAD`) with `200`, an HTML page by default or
    /// JSON when the client's `Accept` prefers `application/json`: title,
    /// status, the type's doc comment, its extension members with their
    /// JSON types ([`ProblemTypeDoc::respond`](crate::ProblemTypeDoc::respond)). `about:blank` and absolute
    /// URIs are never served. A page is served at the type's
    /// [`page_path`](crate::ProblemTypeDoc::page_path), what a client
    /// dereferencing it asks for: `/problems/locked#retry` at
    /// `/problems/locked`. Cases sharing a `type` are served once (the
    /// first). [`build`](Self::build) answers
    /// [`HttpConfigError::InvalidRoute`] for two different types with one
    /// page path (`/problems/locked#a` and `/problems/locked#b`: one page
    /// could document one of them), and for a path with a `.` or `..`
    /// segment (`/problems/../admin`, which a client resolves elsewhere),
    /// or a segment starting with `:`. A percent-encoded type
    /// (`/problems/caf%C3%A9`) is served where a client asks for it,
    /// routed on the path actix-web's router matches (every escape decoded
    /// but those of `%`, `/` and `+`); escapes that decode to bytes that
    /// are not UTF-8, to `{` or `}`, or to a `.`/`..` segment are the same
    /// error. With [`versioning`](Self::versioning), the pages are
    /// version-neutral: the same page for every version, removed and
    /// unknown ones included, without version headers. A route already on
    /// that path is an [`HttpConfigError::DuplicateRoute`] at build.
    ///
    /// ```
    /// use actix_web::{test, App};
    /// use problem_core::Problem;
    /// use problem_core::server::ProblemApp;
    ///
    /// /// A book with this ISBN already exists.
    /// #[derive(Debug, Problem)]
    /// #[problem(status = 409, title = "Conflict", type = "/problems/duplicate-isbn")]
    /// struct DuplicateIsbn { isbn: String }
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let app = ProblemApp::builder().development(false).problem_type::<DuplicateIsbn>().build().unwrap();
    /// let a = app.clone();
    /// let svc = test::init_service(App::new().configure(move |c| a.configure(c)).wrap(app.pipeline())).await;
    /// let req = test::TestRequest::get().uri("/problems/duplicate-isbn").insert_header(("Accept", "application/json"));
    /// let res = test::call_service(&svc, req.to_request()).await;
    /// assert_eq!(res.status(), 200);
    /// let body: serde_json::Value = test::read_body_json(res).await;
    /// assert_eq!(body["members"][0]["type"], "string");
    /// # });
    /// ```
    pub fn problem_type<P: DocumentedProblem>(mut self) -> Self {
        for doc in crate::problem::type_docs::served_docs::<P>() {
            let Some(path) = doc.page_path() else {
                continue;
            };
            let routed = match crate::problem::type_docs::page_route(path) {
                Ok(routed) => routed.into_owned(),
                Err(why) => {
                    self.invalid_problem_type.get_or_insert_with(|| {
                        format!("problem type `{}` {why}", doc.problem_type)
                    });
                    continue;
                }
            };
            match self.problem_types.iter().find(|(p, _)| *p == routed) {
                // Served already, for a type registered before.
                Some((_, t)) if *t == doc.problem_type => continue,
                // Two types, one page: one of them would go undocumented.
                Some((_, t)) => {
                    let t = *t;
                    self.invalid_problem_type.get_or_insert_with(|| {
                        format!(
                            "problem types `{t}` and `{}` share the page `{path}`, which can document one of them: give each type its own path",
                            doc.problem_type
                        )
                    });
                    continue;
                }
                None => {}
            }
            self.problem_types.push((routed.clone(), doc.problem_type));
            let doc = Arc::new(doc);
            self.routes = self
                .routes
                .get(&routed, move |req: HttpRequest| {
                    let doc = doc.clone();
                    async move { doc.respond(&req) }
                })
                .into_routes();
        }
        self
    }

    /// `Cache-Control` for `GET`/`HEAD` success responses that have none
    /// (RFC 9111 §5.2), e.g. `no-cache` so caches revalidate with the
    /// `ETag` ([`ConditionalRequests::cache_control`]). A value that is not
    /// a valid header value (a control character, a line break) or is
    /// empty is an [`HttpConfigError::InvalidListenOption`] from
    /// [`build`](Self::build).
    ///
    /// ```
    /// use actix_web::HttpResponse;
    /// use problem_core::server::ProblemApp;
    /// # use actix_web::{test, App};
    /// # async fn serve(app: problem_core::server::ProblemApp) -> impl actix_web::dev::Service<actix_http::Request, Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, Error = actix_web::Error> {
    /// #     let a = app.clone();
    /// #     test::init_service(App::new().configure(move |c| a.configure(c)).wrap(app.versioning()).wrap(app.pipeline()).wrap(app.conditional())).await
    /// # }
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let app = ProblemApp::builder()
    ///     .development(false)
    ///     .cache_control("no-cache")
    ///     .routes(|r| r.get("/b", || async { HttpResponse::Ok().body("Dune") }))
    ///     .build()
    ///     .unwrap();
    /// let svc = serve(app).await;
    /// let res = test::call_service(&svc, test::TestRequest::get().uri("/b").to_request()).await;
    /// assert_eq!(res.headers().get("cache-control").unwrap(), "no-cache");
    /// let err = ProblemApp::builder().cache_control("no-cache\r\nX-Evil: 1").build().unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid listen option: cache_control \"no-cache\\r\\nX-Evil: 1\" is not a valid header value"
    /// );
    /// let err = ProblemApp::builder().cache_control("").build().unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid listen option: cache_control \"\" is empty: give its directives, such as \"no-cache\", or leave it unset"
    /// );
    /// # });
    /// ```
    pub fn cache_control(mut self, value: &str) -> Self {
        self.conditional = self.conditional.cache_control(value);
        self.invalid_cache_control = self
            .conditional
            .cache_control_value()
            .is_none()
            .then(|| value.to_owned());
        self
    }

    /// Extra actix-web configuration (app data, services), applied before
    /// the routes.
    ///
    /// Register routes with [`routes`](Self::routes): a route or resource
    /// registered here is plain actix-web, outside the route table, so
    /// `build()` does not check it and its `GET` does not answer `HEAD`. On
    /// a resource (`cfg.service(web::resource(..).route(..))`) a method it
    /// lacks gets actix-web's 405 (which the pipeline turns into the
    /// problem `<METHOD> is not allowed on <path>`, and answers `OPTIONS`
    /// there with `204`; both with actix-web's `Allow` and `OPTIONS`). A
    /// bare `cfg.route(path, web::get()..)` is a resource that actix-web
    /// guards by the route's method, so another method there, `OPTIONS`
    /// and `HEAD` included, matches no resource: actix-web's 404, the
    /// problem `No route for <METHOD> <path>`.
    ///
    /// ```
    /// use actix_web::{web, HttpResponse};
    /// use problem_core::server::ProblemApp;
    /// # use actix_web::{test, App};
    /// # async fn serve(app: problem_core::server::ProblemApp) -> impl actix_web::dev::Service<actix_http::Request, Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, Error = actix_web::Error> {
    /// #     let a = app.clone();
    /// #     test::init_service(App::new().configure(move |c| a.configure(c)).wrap(app.versioning()).wrap(app.pipeline()).wrap(app.conditional())).await
    /// # }
    ///
    /// # actix_web::rt::System::new().block_on(async {
    /// let app = ProblemApp::builder()
    ///     .development(false)
    ///     .configure(|cfg| {
    ///         cfg.app_data(web::Data::new(String::from("catalog")));
    ///     })
    ///     .routes(|r| r.get("/name", |name: web::Data<String>| async move { HttpResponse::Ok().body(name.to_string()) }))
    ///     .build()
    ///     .unwrap();
    /// let svc = serve(app).await;
    /// let res = test::call_service(&svc, test::TestRequest::get().uri("/name").to_request()).await;
    /// assert_eq!(test::read_body(res).await, "catalog");
    /// # });
    /// ```
    pub fn configure(mut self, f: impl Fn(&mut ServiceConfig) + Send + Sync + 'static) -> Self {
        self.configure.push(Arc::new(f));
        self
    }

    /// Builds the application. The random key a `Collection` extractor
    /// signs cursors with when no cursor key is configured
    /// ([`QueryConfig::cursor_keys`](crate::query::QueryConfig::cursor_keys))
    /// is generated here (once per process), and the application's
    /// [`configure`](ProblemApp::configure) registers its [`Pipeline`] as
    /// application data, so that the extractor's warning about it
    /// ([`RANDOM_CURSOR_KEY_WARNING`](crate::query::RANDOM_CURSOR_KEY_WARNING))
    /// goes to this application's logger, once.
    ///
    /// # Errors
    /// [`HttpConfigError`]: a duplicate route, an invalid path, an invalid
    /// allowed host, a zero body limit or body timeout, a log tag with a
    /// control character, a problem type whose page cannot be served at its
    /// path ([`problem_type`](Self::problem_type)), a `Cache-Control` value that is no
    /// header value,
    /// [`HttpConfigError::InvalidVersionConfig`] for a `versioned![...]`
    /// route without a fallback, or a handler taking the
    /// [`ApiVersion`](crate::version::ApiVersion) extractor, on a
    /// version-neutral path (including `neutral_path("/")` and the problem
    /// type pages), where no version is resolved, or for a
    /// `versioned![...]` route without a fallback that serves none of the
    /// configured versions (not removed), so it could only answer 400,
    /// [`HttpConfigError::VersionedRouteWithoutVersioning`] naming the first
    /// `versioned![...]` route when the builder has no
    /// [`versioning`](Self::versioning) (installed into your own `App`, wrap
    /// [`ProblemApp::versioning`] inside [`ProblemApp::pipeline`]), or
    /// [`HttpConfigError::ApiVersionWithoutVersioning`] for a handler taking
    /// the `ApiVersion` extractor there (`Option<ApiVersion>` is served
    /// without a version).
    ///
    /// ```
    /// use actix_web::HttpResponse;
    /// use problem_core::server::ProblemApp;
    /// use problem_core::version::{self, VersionConfig, VersionStrategy};
    /// use problem_core::{HttpConfigError, versioned};
    ///
    /// #[versioned("1.x")]
    /// async fn list_v1() -> HttpResponse { HttpResponse::Ok().finish() }
    ///
    /// let err = ProblemApp::builder()
    ///     .routes(|r| r.get("/orders", version::versioned![list_v1]))
    ///     .build()
    ///     .unwrap_err();
    /// assert_eq!(
    ///     err,
    ///     HttpConfigError::VersionedRouteWithoutVersioning { method: "GET".into(), path: "/orders".into() }
    /// );
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header()).build().unwrap();
    /// assert!(ProblemApp::builder()
    ///     .versioning(config)
    ///     .routes(|r| r.get("/orders", version::versioned![list_v1]))
    ///     .build()
    ///     .is_ok());
    ///
    /// let config = VersionConfig::builder(VersionStrategy::header())
    ///     .supported_versions([version::V2, version::V3])
    ///     .build()
    ///     .unwrap();
    /// let err = ProblemApp::builder()
    ///     .versioning(config)
    ///     .routes(|r| r.get("/orders", version::versioned![list_v1]))
    ///     .build()
    ///     .unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid version configuration: route GET /orders dispatches by API version (versioned![...]) to 1.x but serves none of the supported versions (2.0, 3.0), so it could only answer 400: register a handler for one of them, or give the table a `fallback = <handler>`"
    /// );
    /// ```
    pub fn build(self) -> Result<ProblemApp, HttpConfigError> {
        self.routes.check()?;
        // The random cursor key a `Collection` extractor signs with when
        // no key is configured: generated now, not at a first request.
        let _ = crate::query::random_cursor_keys();
        if let Some(value) = &self.invalid_cache_control {
            return Err(HttpConfigError::InvalidListenOption(
                if value.trim().is_empty() {
                    format!(
                        "cache_control {value:?} is empty: give its directives, such as \"no-cache\", or leave it unset"
                    )
                } else {
                    format!("cache_control {value:?} is not a valid header value")
                },
            ));
        }
        if let Some(why) = self.invalid_problem_type {
            return Err(HttpConfigError::InvalidRoute(why));
        }
        if self.versioning.is_none()
            && let Some((method, path, kind)) = self.routes.first_versioned()
        {
            let (method, path) = (method.to_owned(), path.to_owned());
            return Err(match kind {
                Versioned::Extractor => {
                    HttpConfigError::ApiVersionWithoutVersioning { method, path }
                }
                Versioned::No | Versioned::WithFallback | Versioned::WithoutFallback => {
                    HttpConfigError::VersionedRouteWithoutVersioning { method, path }
                }
            });
        }
        let problem_types = &self.problem_types;
        let versioning = self.versioning.map(|mut c| {
            // The problem type pages document the same type for every
            // version: version-neutral.
            for (path, _) in problem_types {
                c.add_neutral_page(path);
            }
            c
        });
        if let Some(config) = &versioning
            && let Some((method, path, kind)) =
                self.routes.first_unresolvable(|p| config.is_neutral(p))
        {
            return Err(HttpConfigError::InvalidVersionConfig(match kind {
                Versioned::Extractor => format!(
                    "route {method} {path} takes the ApiVersion extractor but its path is version-neutral, so no version is resolved there: take `Option<ApiVersion>` or take the path out of the neutral paths"
                ),
                Versioned::No | Versioned::WithFallback | Versioned::WithoutFallback => format!(
                    "route {method} {path} dispatches by API version (versioned![...]) but its path is version-neutral, so no version is resolved there: give the table a `fallback = <handler>` (one that does not take `ApiVersion`) or take the path out of the neutral paths"
                ),
            }));
        }
        if let Some(config) = &versioning
            && let Some((method, path, registered)) =
                self.routes.first_serving_none(config.advertised_versions())
        {
            let supported = crate::version::version_list(config.advertised_versions());
            return Err(HttpConfigError::InvalidVersionConfig(format!(
                "route {method} {path} dispatches by API version (versioned![...]) to {registered} but serves none of the supported versions ({supported}), so it could only answer 400: register a handler for one of them, or give the table a `fallback = <handler>`"
            )));
        }
        let versioning = versioning.map(Versioning::new);
        let pipeline = self
            .pipeline
            .max_request_body_size(self.max_request_body_size)
            .versioning(versioning.clone())
            .build()?;
        Ok(ProblemApp {
            conditional: self.conditional.rendered_by(pipeline.clone()),
            pipeline,
            routes: Arc::new(self.routes),
            configure: self.configure,
            max_request_body_size: self.max_request_body_size,
            versioning,
        })
    }
}
