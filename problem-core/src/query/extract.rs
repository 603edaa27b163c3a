//! The actix-web extractor [`Collection`] and its [`QueryConfig`] (like
//! actix-web's `QueryConfig`: put it in `app_data`).

use std::fmt;
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest};
use futures_util::future::{Ready, ready};

use crate::config::HttpConfigError;

use super::count::{CountStrategy, DEFAULT_ESTIMATE_THRESHOLD};
use super::cursor::CursorKeys;
use super::error::QueryError;
use super::params::QueryLimits;
use super::tolerated::ToleratedParameters;
use super::typed::{CollectionQuery, TypedQuery};

type ErrorHandler = dyn Fn(QueryError, &HttpRequest) -> actix_web::Error + Send + Sync;

/// Settings of the [`Collection`] extractor, registered with
/// `App::app_data(QueryConfig::default()...)` (or on a scope/resource;
/// `web::Data<QueryConfig>` is found too).
/// Without one, [`QueryConfig::default`] applies.
///
/// Not actix-web's `web::QueryConfig` (the error handler of `web::Query<T>`):
/// that one is reached as `web::QueryConfig`, this one as
/// `problem_core::query::QueryConfig`; the name is kept because it is this
/// crate's most used setting (README, examples, every collection handler)
/// and the two are told apart by their paths.
///
/// | Setting | Default | Meaning |
/// |---|---|---|
/// | [`cursor_keys`](Self::cursor_keys) | none | HMAC keys of cursors (first signs, all verify). Without a key, the [`Collection`] extractor signs and verifies cursors with a random key generated once per process (when a `ProblemApp` is built, else at the first `Collection` extraction, offset pages included) and logs once, at `warn`: [`RANDOM_CURSOR_KEY_WARNING`] (through the application's logger under `ProblemApp`); cursor pages do not fail for want of a key, but their cursors do not survive a restart or reach another instance. Set a key for that. (A [`TypedQuery`] parsed by hand with a keyless config still fails a cursor page with [`ApplyError::NoCursorKey`](super::ApplyError).) |
/// | [`lenient`](Self::lenient) | `false` | Ignore parameters that name no filterable field, instead of a 400 `unknown_parameter`/`unknown_field`; an operator a filterable field does not allow (`id__foo`) is still a 400 `operator_not_allowed`. |
/// | [`ignore_parameters`](Self::ignore_parameters) | `["api-version"]` | Names never treated as filters (the versioning query parameter). The [`Collection`] extractor ignores the query parameters of the versioning that resolved the request (`VersionStrategy::query_named`): instead of the default list, so that `api-version` is an unknown parameter where the versioning reads another name, or besides a list the application set. |
/// | [`tolerate`](Self::tolerate) | none | Names and `prefix*` patterns (`_`, `utm_*`) that strict parsing accepts and ignores (a collection's own filter parameters excepted: a tolerated name never hides a filter): not filters, not bound into cursors, left out of the links; they still count toward the 1000-parameter limit, and one holding a NUL character is still the 400 `invalid_value` of the NUL rule ([`ToleratedParameters`]). |
/// | [`count_strategy`](Self::count_strategy) | [`CountStrategy::Exact`] | How offset pages count their total when the client states no preference; a client's `Prefer: count=exact\|estimated\|none` (RFC 7240) overrides it, answered with `Preference-Applied` ([`CountStrategy`]). `none`: `meta.total`/`meta.total_pages`, the `last` link and `X-Total-Count` are omitted. |
/// | [`count_total`](Self::count_total) | `true` | Shorthand: `true` is `count_strategy(Exact)`, `false` is `count_strategy(None)`. |
/// | [`estimate_threshold`](Self::estimate_threshold) | 10,000 ([`DEFAULT_ESTIMATE_THRESHOLD`](super::DEFAULT_ESTIMATE_THRESHOLD)) | With the estimated strategy, the total is counted exactly up to this many rows and estimated above it. |
/// | [`error_handler`](Self::error_handler) | none | Turns a [`QueryError`] into the error answered; default: [`QueryError::into_actix_error`]. |
///
/// ```
/// use problem_core::query::QueryConfig;
/// let config = QueryConfig::default()
///     .cursor_keys([b"0123456789abcdef0123456789abcdef".to_vec()]).unwrap()
///     .count_total(false);
/// assert!(!config.counts_total());
/// assert_eq!(config.ignored_parameters(), ["api-version"]);
/// ```
///
/// Cloning costs a reference count (two with cursor keys): every
/// [`TypedQuery`](super::TypedQuery) keeps the configuration it was parsed
/// with.
#[derive(Clone)]
pub struct QueryConfig {
    settings: Arc<Settings>,
    keys: Option<CursorKeys>,
}

/// What a [`QueryConfig`] holds besides its keys, shared by its clones (a
/// setter on a shared configuration copies it first).
#[derive(Clone)]
struct Settings {
    lenient: bool,
    ignored: Arc<[String]>,
    /// `ignored` is the default list (`api-version`), not one the
    /// application set.
    ignored_by_default: bool,
    tolerated: ToleratedParameters,
    count: CountStrategy,
    estimate_threshold: u64,
    limits: QueryLimits,
    error_handler: Option<Arc<ErrorHandler>>,
}

impl Default for QueryConfig {
    fn default() -> Self {
        Self {
            keys: None,
            settings: Arc::new(Settings {
                lenient: false,
                ignored: Arc::from([crate::spec::DEFAULT_VERSION_QUERY.to_owned()]),
                ignored_by_default: true,
                tolerated: ToleratedParameters::default(),
                count: CountStrategy::Exact,
                estimate_threshold: DEFAULT_ESTIMATE_THRESHOLD,
                limits: QueryLimits::default(),
                error_handler: None,
            }),
        }
    }
}

impl fmt::Debug for QueryConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("QueryConfig")
            .field("keys", &self.keys)
            .field("lenient", &self.settings.lenient)
            .field("ignored", &self.settings.ignored)
            .field("tolerated", &self.settings.tolerated)
            .field("count", &self.settings.count)
            .field("estimate_threshold", &self.settings.estimate_threshold)
            .field("limits", &self.settings.limits)
            .field("error_handler", &self.settings.error_handler.is_some())
            .finish()
    }
}

impl QueryConfig {
    /// Sets the cursor keys, newest first (each at least 32 bytes).
    ///
    /// ```
    /// use problem_core::query::QueryConfig;
    /// let config = QueryConfig::default().cursor_keys([[2u8; 32], [1u8; 32]]).unwrap();
    /// assert_eq!(config.keys().unwrap().len(), 2);
    /// let err = QueryConfig::default().cursor_keys([b"secret".to_vec()]).unwrap_err();
    /// assert_eq!(err.to_string(), "invalid query configuration: cursor key #0 is shorter than 32 bytes");
    /// ```
    ///
    /// # Errors
    /// [`HttpConfigError::InvalidQueryConfig`] for no key or a short key.
    pub fn cursor_keys<I, K>(mut self, keys: I) -> Result<Self, HttpConfigError>
    where
        I: IntoIterator<Item = K>,
        K: Into<Vec<u8>>,
    {
        self.keys = Some(CursorKeys::new(keys)?);
        Ok(self)
    }

    /// Opt-in lenient mode: parameters that name no filterable field are
    /// ignored; an operator a filterable field does not allow (`id__foo`,
    /// `title__gte`) is still a 400 `operator_not_allowed`, as a mistake
    /// in a filter the client meant to apply.
    ///
    /// ```
    /// # use problem_core::CollectionQuery;
    /// # #[derive(CollectionQuery)]
    /// # #[query(key = "id")]
    /// # #[allow(dead_code)]
    /// # struct BookQuery {
    /// #     #[query(filter(eq, gt), sort)]
    /// #     id: i64,
    /// #     #[query(filter(eq, contains), search)]
    /// #     title: String,
    /// # }
    /// use problem_core::query::{QueryConfig, TypedQuery};
    /// let strict = TypedQuery::<BookQuery>::from_query_str("utm_source=x", &QueryConfig::default());
    /// assert_eq!(strict.unwrap_err().issues()[0].code, "unknown_parameter");
    /// let config = QueryConfig::default().lenient(true);
    /// let q = TypedQuery::<BookQuery>::from_query_str("utm_source=x&id=3", &config).unwrap();
    /// assert_eq!(q.filter().conditions().len(), 1);
    /// let bad_operator = TypedQuery::<BookQuery>::from_query_str("id__foo=3", &config);
    /// assert_eq!(bad_operator.unwrap_err().issues()[0].code, "operator_not_allowed");
    /// ```
    pub fn lenient(mut self, lenient: bool) -> Self {
        Arc::make_mut(&mut self.settings).lenient = lenient;
        self
    }

    /// Replaces the names of parameters that are never filters.
    ///
    /// ```
    /// # use problem_core::CollectionQuery;
    /// # #[derive(CollectionQuery)]
    /// # #[query(key = "id")]
    /// # #[allow(dead_code)]
    /// # struct BookQuery {
    /// #     #[query(filter(eq, gt), sort)]
    /// #     id: i64,
    /// #     #[query(filter(eq, contains), search)]
    /// #     title: String,
    /// # }
    /// use problem_core::query::{QueryConfig, TypedQuery};
    /// let config = QueryConfig::default().ignore_parameters(["v"]);
    /// assert!(TypedQuery::<BookQuery>::from_query_str("v=2", &config).unwrap().filter().is_empty());
    /// let err = TypedQuery::<BookQuery>::from_query_str("api-version=2", &config).unwrap_err();
    /// assert_eq!(err.issues()[0].code, "unknown_parameter");
    /// ```
    pub fn ignore_parameters<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let settings = Arc::make_mut(&mut self.settings);
        settings.ignored = names
            .into_iter()
            .map(Into::into)
            .collect::<Vec<String>>()
            .into();
        settings.ignored_by_default = false;
        self
    }

    /// Tolerates parameters: exact names and `prefix*` patterns that strict
    /// parsing accepts and ignores (replacing earlier ones). See
    /// [`ToleratedParameters`].
    ///
    /// # Errors
    /// [`HttpConfigError::InvalidQueryConfig`] for an empty entry, `*`
    /// alone, a `*` not at the end, or an entry matching a reserved
    /// parameter: a mistake is reported when the application is built,
    /// never as a failing request.
    ///
    /// ```
    /// use problem_core::query::QueryConfig;
    /// let config = QueryConfig::default().tolerate(["_", "utm_*"]).unwrap();
    /// assert_eq!(config.tolerated().patterns(), ["_", "utm_*"]);
    /// assert!(QueryConfig::default().tolerate(["utm_*_id"]).is_err());
    /// ```
    pub fn tolerate<I, S>(mut self, patterns: I) -> Result<Self, HttpConfigError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Arc::make_mut(&mut self.settings).tolerated = ToleratedParameters::new(patterns)?;
        Ok(self)
    }

    /// The tolerated parameters.
    ///
    /// ```
    /// use problem_core::query::QueryConfig;
    /// assert!(QueryConfig::default().tolerated().is_empty());
    /// let config = QueryConfig::default().tolerate(["_"]).unwrap();
    /// assert!(config.tolerated().matches("_"));
    /// ```
    pub fn tolerated(&self) -> &ToleratedParameters {
        &self.settings.tolerated
    }

    /// At most `n` filter conditions per request (default 64); more is a
    /// 400 issue `too_many_filters` with member `max` (see [`QueryLimits`]).
    /// Conditions are counted as sent: a filter repeated with the same
    /// value counts each time (so 998 repeats of `title__contains=a` are
    /// refused), except a repeat of an exploded `__in`/`__not_in` list,
    /// which adds to its list. Parameters that name no filterable field
    /// are not conditions: they
    /// are `unknown_parameter` issues (or ignored when lenient). Past the
    /// limit the filters are not read further, to bound the work one
    /// request can ask for: the issue `too_many_filters` names the first
    /// filter over it, and the values of the filters after it are not
    /// checked (their `invalid_value` or `too_long` issues are not
    /// reported); issues of other parameters still are.
    ///
    /// ```
    /// use problem_core::query::{QueryConfig, RawQuery};
    /// let config = QueryConfig::default().max_filters(2).max_value_length(8);
    /// assert_eq!((config.limits().max_filters, config.limits().max_value_length), (2, 8));
    /// ```
    pub fn max_filters(mut self, n: usize) -> Self {
        Arc::make_mut(&mut self.settings).limits.max_filters = n;
        self
    }

    /// Each filter value, `__in`/`__not_in` item and search term at most
    /// `chars` characters (default 256); longer is a 400 issue `too_long`
    /// with member `max` (see [`QueryLimits`]).
    ///
    /// ```
    /// # use problem_core::CollectionQuery;
    /// # #[derive(CollectionQuery)]
    /// # #[query(key = "id")]
    /// # #[allow(dead_code)]
    /// # struct BookQuery {
    /// #     #[query(filter(eq, gt), sort)]
    /// #     id: i64,
    /// #     #[query(filter(eq, contains), search)]
    /// #     title: String,
    /// # }
    /// use problem_core::query::{QueryConfig, TypedQuery};
    /// let config = QueryConfig::default().max_value_length(4);
    /// assert!(TypedQuery::<BookQuery>::from_query_str("q=dune", &config).is_ok());
    /// let err = TypedQuery::<BookQuery>::from_query_str("title__contains=arrakis", &config).unwrap_err();
    /// let issue = &err.issues()[0];
    /// assert_eq!((issue.code.as_ref(), issue.message.as_str()), ("too_long", "the value of `title__contains` is longer than 4 characters"));
    /// ```
    pub fn max_value_length(mut self, chars: usize) -> Self {
        Arc::make_mut(&mut self.settings).limits.max_value_length = chars;
        self
    }

    /// The size limits.
    ///
    /// ```
    /// use problem_core::query::{QueryConfig, QueryLimits};
    /// assert_eq!(QueryConfig::default().limits(), QueryLimits { max_filters: 64, max_value_length: 256 });
    /// assert_eq!(QueryConfig::default().max_filters(5).limits().max_filters, 5);
    /// ```
    pub fn limits(&self) -> QueryLimits {
        self.settings.limits
    }

    /// Turns counting the total on ([`CountStrategy::Exact`]) or off
    /// ([`CountStrategy::None`]); a client's `Prefer: count=...` still
    /// overrides it.
    ///
    /// ```
    /// use problem_core::query::{CountStrategy, QueryConfig};
    /// let config = QueryConfig::default().count_strategy(CountStrategy::Estimated);
    /// assert_eq!(config.clone().count_total(true).default_count_strategy(), CountStrategy::Exact);
    /// assert_eq!(config.count_total(false).default_count_strategy(), CountStrategy::None);
    /// ```
    pub fn count_total(mut self, on: bool) -> Self {
        Arc::make_mut(&mut self.settings).count = if on {
            CountStrategy::Exact
        } else {
            CountStrategy::None
        };
        self
    }

    /// The count strategy of offset pages whose request states no
    /// `count` preference (default [`CountStrategy::Exact`]).
    ///
    /// ```
    /// use problem_core::query::{CountStrategy, QueryConfig};
    /// let config = QueryConfig::default().count_strategy(CountStrategy::Estimated).estimate_threshold(500);
    /// assert_eq!((config.default_count_strategy(), config.count_threshold()), (CountStrategy::Estimated, 500));
    /// assert!(config.counts_total());
    /// ```
    pub fn count_strategy(mut self, strategy: CountStrategy) -> Self {
        Arc::make_mut(&mut self.settings).count = strategy;
        self
    }

    /// With the estimated strategy, count exactly up to `rows` matching
    /// rows and estimate above (default 10,000). `rows` above
    /// `i64::MAX - 1` (`u64::MAX` for "always exact") is read as
    /// `i64::MAX - 1`, so that the capped count's `LIMIT rows + 1` binds
    /// as SQL's signed 64-bit integer.
    ///
    /// ```
    /// use problem_core::query::QueryConfig;
    /// assert_eq!(QueryConfig::default().count_threshold(), 10_000);
    /// assert_eq!(QueryConfig::default().estimate_threshold(1_000).count_threshold(), 1_000);
    /// assert_eq!(QueryConfig::default().estimate_threshold(u64::MAX).count_threshold(), i64::MAX as u64 - 1);
    /// ```
    pub fn estimate_threshold(mut self, rows: u64) -> Self {
        Arc::make_mut(&mut self.settings).estimate_threshold =
            rows.min(super::pagination::MAX_ROWS);
        self
    }

    /// The default count strategy.
    ///
    /// ```
    /// use problem_core::query::{CountStrategy, QueryConfig};
    /// assert_eq!(QueryConfig::default().default_count_strategy(), CountStrategy::Exact);
    /// ```
    pub fn default_count_strategy(&self) -> CountStrategy {
        self.settings.count
    }

    /// The threshold of estimated counts, in rows.
    ///
    /// ```
    /// use problem_core::query::{DEFAULT_ESTIMATE_THRESHOLD, QueryConfig};
    /// assert_eq!(QueryConfig::default().count_threshold(), DEFAULT_ESTIMATE_THRESHOLD);
    /// ```
    pub fn count_threshold(&self) -> u64 {
        self.settings.estimate_threshold
    }

    /// Sets the hook that turns a query error into the response error.
    ///
    /// ```
    /// # use problem_core::CollectionQuery;
    /// # #[derive(CollectionQuery)]
    /// # #[query(key = "id")]
    /// # #[allow(dead_code)]
    /// # struct BookQuery {
    /// #     #[query(filter(eq, gt), sort)]
    /// #     id: i64,
    /// #     #[query(filter(eq, contains), search)]
    /// #     title: String,
    /// # }
    /// use actix_web::{FromRequest, error::ErrorUnprocessableEntity, test::TestRequest};
    /// use problem_core::query::{Collection, QueryConfig};
    /// # actix_web::rt::System::new().block_on(async {
    /// let config = QueryConfig::default()
    ///     .error_handler(|err, _req| ErrorUnprocessableEntity(format!("{} issue(s)", err.issues().len())));
    /// let req = TestRequest::with_uri("/books?page=0&id__gt=x").app_data(config).to_http_request();
    /// let err = Collection::<BookQuery>::extract(&req).await.unwrap_err();
    /// assert_eq!(err.as_response_error().status_code(), 422);
    /// assert_eq!(err.to_string(), "2 issue(s)");
    /// # });
    /// ```
    pub fn error_handler<F>(mut self, f: F) -> Self
    where
        F: Fn(QueryError, &HttpRequest) -> actix_web::Error + Send + Sync + 'static,
    {
        Arc::make_mut(&mut self.settings).error_handler = Some(Arc::new(f));
        self
    }

    /// Whether lenient mode is on.
    ///
    /// ```
    /// use problem_core::query::QueryConfig;
    /// assert!(!QueryConfig::default().is_lenient());
    /// assert!(QueryConfig::default().lenient(true).is_lenient());
    /// ```
    pub fn is_lenient(&self) -> bool {
        self.settings.lenient
    }

    /// The ignored parameter names.
    ///
    /// ```
    /// use problem_core::query::QueryConfig;
    /// assert_eq!(QueryConfig::default().ignored_parameters(), ["api-version"]);
    /// assert_eq!(QueryConfig::default().ignore_parameters(["v", "version"]).ignored_parameters(), ["v", "version"]);
    /// ```
    pub fn ignored_parameters(&self) -> &[String] {
        &self.settings.ignored
    }

    /// Whether totals are counted by default (the default strategy is not
    /// [`CountStrategy::None`]).
    ///
    /// ```
    /// use problem_core::query::{CountStrategy, QueryConfig};
    /// assert!(QueryConfig::default().counts_total());
    /// assert!(!QueryConfig::default().count_strategy(CountStrategy::None).counts_total());
    /// ```
    pub fn counts_total(&self) -> bool {
        self.settings.count != CountStrategy::None
    }

    /// The cursor keys, if configured.
    ///
    /// ```
    /// use problem_core::query::QueryConfig;
    /// assert!(QueryConfig::default().keys().is_none());
    /// let config = QueryConfig::default().cursor_keys([[9u8; 32]]).unwrap();
    /// assert_eq!(config.keys().map(|k| k.len()), Some(1));
    /// ```
    pub fn keys(&self) -> Option<&CursorKeys> {
        self.keys.as_ref()
    }

    fn error(&self, err: QueryError, req: &HttpRequest) -> actix_web::Error {
        match &self.settings.error_handler {
            Some(h) => h(err, req),
            None => err.into_actix_error(),
        }
    }
}

/// Extractor of a typed collection query: parses the request's query string
/// against `Q`'s schema before the handler runs, and reads the request's
/// `Prefer: count=...` ([`TypedQuery::with_prefer`]). A bad query answers 400
/// (a `ValidationException` with every issue, or the 1000-parameter
/// `BadRequestException`) and the handler is not called.
///
/// ```no_run
/// use actix_web::{get, HttpResponse, Responder};
/// use problem_core::CollectionQuery;
/// use problem_core::query::Collection;
///
/// #[derive(CollectionQuery)]
/// #[query(key = "id")]
/// #[allow(dead_code)]
/// struct BookQuery {
///     #[query(filter(eq, gt), sort)]
///     id: i64,
/// }
///
/// #[get("/books")]
/// async fn list(q: Collection<BookQuery>) -> impl Responder {
///     HttpResponse::Ok().body(q.order().to_string())
/// }
/// ```
pub struct Collection<Q>(pub TypedQuery<Q>);

impl<Q> Collection<Q> {
    /// The parsed query.
    ///
    /// ```
    /// # use problem_core::CollectionQuery;
    /// # #[derive(CollectionQuery)]
    /// # #[query(key = "id")]
    /// # #[allow(dead_code)]
    /// # struct BookQuery {
    /// #     #[query(filter(eq, gt), sort)]
    /// #     id: i64,
    /// #     #[query(filter(eq, contains), search)]
    /// #     title: String,
    /// # }
    /// use actix_web::{FromRequest, test::TestRequest};
    /// use problem_core::query::{Collection, TypedQuery};
    /// # actix_web::rt::System::new().block_on(async {
    /// let req = TestRequest::with_uri("/books?sort=-id&q=dune").to_http_request();
    /// let q: TypedQuery<BookQuery> = Collection::<BookQuery>::extract(&req).await.unwrap().into_inner();
    /// assert_eq!(q.order().to_string(), "-id");
    /// assert_eq!(q.search_fields(), ["title"]);
    /// # });
    /// ```
    pub fn into_inner(self) -> TypedQuery<Q> {
        self.0
    }
}

impl<Q> Deref for Collection<Q> {
    type Target = TypedQuery<Q>;
    fn deref(&self) -> &TypedQuery<Q> {
        &self.0
    }
}

impl<Q> fmt::Debug for Collection<Q> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Collection").field(&self.0).finish()
    }
}

/// The warning logged once when a [`Collection`] is extracted with no
/// cursor key configured, at `warn`: in an application built by
/// [`ProblemApp`](crate::server::ProblemApp), once per application,
/// through its pipeline's logger (`[<tag>] ` first, as its other lines);
/// otherwise once per process, through the default logger's path
/// (`tracing`, or stderr when no subscriber is set).
///
/// ```
/// assert!(problem_core::query::RANDOM_CURSOR_KEY_WARNING.starts_with("no cursor key is configured"));
/// ```
pub const RANDOM_CURSOR_KEY_WARNING: &str = "no cursor key is configured (QueryConfig::cursor_keys): cursors are signed with a random key generated once per process, so they will not survive a restart or reach another instance";

impl QueryConfig {
    /// This configuration ignoring the query parameters `names` of the
    /// versioning that resolved the request: instead of the default list
    /// (`api-version`, which that versioning does not read unless it is
    /// among `names`), else besides the application's own list; `None`
    /// when nothing changes.
    fn ignoring_version_parameters<'n>(
        &self,
        names: impl Iterator<Item = &'n str>,
    ) -> Option<Self> {
        let ignored = &self.settings.ignored;
        if self.settings.ignored_by_default {
            let names: Vec<String> = names.map(str::to_owned).collect();
            if ignored[..] == names[..] {
                return None;
            }
            return Some(self.clone().ignore_parameters(names));
        }
        let missing: Vec<&str> = names.filter(|n| !ignored.iter().any(|i| i == n)).collect();
        if missing.is_empty() {
            return None;
        }
        let all: Vec<String> = ignored
            .iter()
            .map(String::as_str)
            .chain(missing)
            .map(str::to_owned)
            .collect();
        Some(self.clone().ignore_parameters(all))
    }
}

/// The process's random cursor key: two v4 UUIDs (32 bytes), generated
/// the first time it is asked for ([`ProblemAppBuilder::build`] asks, so
/// an application built with it has it from its build).
///
/// [`ProblemAppBuilder::build`]: crate::server::ProblemAppBuilder::build
pub(crate) fn random_cursor_keys() -> Option<CursorKeys> {
    static RANDOM: OnceLock<Option<CursorKeys>> = OnceLock::new();
    RANDOM
        .get_or_init(|| {
            let mut key = Vec::with_capacity(32);
            key.extend_from_slice(uuid::Uuid::new_v4().as_bytes());
            key.extend_from_slice(uuid::Uuid::new_v4().as_bytes());
            CursorKeys::new([key]).ok()
        })
        .clone()
}

/// `config` with the process's random cursor key when it has none, and
/// [`RANDOM_CURSOR_KEY_WARNING`] logged once: through the logger of the
/// application's error pipeline (registered as application data by
/// `ProblemApp`), once per application; without one, through `tracing`,
/// once per process.
fn with_cursor_key(config: &QueryConfig, req: &HttpRequest) -> Option<QueryConfig> {
    static WARNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if config.keys().is_some() {
        return None;
    }
    match req.app_data::<crate::pipeline::Pipeline>() {
        Some(pipeline) => pipeline.warn_random_cursor_key(),
        None => {
            if crate::pipeline::first_time(&WARNED) {
                crate::pipeline::LogSink::log(
                    &crate::pipeline::TracingLogger,
                    &crate::pipeline::LogRecord {
                        level: crate::pipeline::LogLevel::Warn,
                        message: RANDOM_CURSOR_KEY_WARNING,
                        error: None,
                        correlation_id: uuid::Uuid::nil(),
                    },
                );
            }
        }
    }
    let mut config = config.clone();
    config.keys = random_cursor_keys();
    Some(config)
}

impl<Q: CollectionQuery> FromRequest for Collection<Q> {
    type Error = actix_web::Error;
    type Future = Ready<Result<Self, actix_web::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        // Without a registered configuration, the default one, built once
        // per process rather than per request.
        static DEFAULT: OnceLock<QueryConfig> = OnceLock::new();
        let config = match req.app_data::<QueryConfig>().or_else(|| {
            req.app_data::<actix_web::web::Data<QueryConfig>>()
                .map(|d| d.get_ref())
        }) {
            Some(c) => c,
            None => DEFAULT.get_or_init(QueryConfig::default),
        };
        // The version query parameter of the versioning that resolved this
        // request is never a filter, whatever its name. Looked up only
        // when some versioning of the process reads another name than
        // `api-version`, which the configuration ignores by default.
        let renamed = if crate::version::renamed_query_in_use() {
            let ext = actix_web::HttpMessage::extensions(req);
            ext.get::<crate::pipeline::StickyHeaders>()
                .and_then(|sticky| sticky.resolved_by.as_deref())
                .and_then(|versioning| config.ignoring_version_parameters(versioning.query_names()))
        } else {
            None
        };
        let config = renamed.as_ref().unwrap_or(config);
        // The parsed query keeps a copy of the configuration: the one with
        // the random key when there is no key, else a clone.
        let keyed = with_cursor_key(config, req).unwrap_or_else(|| config.clone());
        let parsed = TypedQuery::<Q>::from_query_str_with(req.query_string(), keyed)
            .map(|q| q.with_prefer(req.headers()));
        ready(match parsed {
            Ok(q) => Ok(Collection(q)),
            Err(e) => Err(config.error(e, req)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setter_on_a_clone_leaves_the_original_alone() {
        let base = QueryConfig::default();
        let changed = base
            .clone()
            .lenient(true)
            .max_filters(3)
            .cursor_keys([[7u8; 32].to_vec()])
            .unwrap();
        assert!(!base.is_lenient());
        assert_eq!(base.limits().max_filters, 64);
        assert!(base.keys().is_none());
        assert!(changed.is_lenient());
        assert_eq!(changed.limits().max_filters, 3);
        assert_eq!(changed.keys().map(CursorKeys::len), Some(1));
        // A clone shares the settings until one of them is set.
        let copy = changed.clone();
        assert!(Arc::ptr_eq(&copy.settings, &changed.settings));
        assert!(!Arc::ptr_eq(&base.settings, &changed.settings));
    }
}
