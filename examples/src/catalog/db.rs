//! The database: SQLite (embedded, in memory by default) or PostgreSQL,
//! one code path: statements are built once with sea-query and run on
//! whichever pool is configured.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use sea_query::{
    ColumnDef, Expr, ExprTrait, ForeignKey, ForeignKeyAction, Iden, InsertStatement, OnConflict,
    PostgresQueryBuilder, Query, SelectStatement, SqliteQueryBuilder, Table, TableCreateStatement,
};
use sea_query_sqlx::SqlxBinder;
use sqlx::postgres::PgPoolOptions;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
use sqlx::{ConnectOptions, Executor, PgPool, SqliteConnection, SqlitePool};

use problem_core::query::{Total, explain_plan_rows, fold_case};

use super::model::{Book, NewBook};

/// How far above the estimate threshold PostgreSQL's planner must put the
/// matching rows for `Prefer: count=estimated` to answer its estimate
/// without counting ([`Db::estimated_count`]): twice. The planner's figure
/// comes from statistics that writes since the last `ANALYZE` have not
/// updated (30 long rows inserted and 40 deleted moved 9,990 rows to
/// 10,091), so near the threshold the rows are counted, up to threshold +
/// 1, to tell an exact total from an estimate; far above it (a table of a
/// million rows) the estimate is answered at once, the point of the
/// strategy.
pub const PLANNER_MARGIN: u64 = 2;

/// The `books` table and its columns.
#[derive(Debug, Clone, Copy, Iden)]
pub enum Books {
    /// The table.
    Table,
    /// `id`
    Id,
    /// `isbn`
    Isbn,
    /// `title`
    Title,
    /// `author`
    Author,
    /// `genre`
    Genre,
    /// `year`
    Year,
    /// `price`
    Price,
    /// `rating`
    Rating,
    /// `subtitle`
    Subtitle,
    /// `published_at`
    PublishedAt,
    /// `in_stock`
    InStock,
    /// `title_folded`: `title` folded by `fold_case`, read by search.
    TitleFolded,
    /// `author_folded`: `author` folded by `fold_case`.
    AuthorFolded,
    /// `subtitle_folded`: `subtitle` folded by `fold_case`, or null.
    SubtitleFolded,
}

/// The columns search reads: each text searched, folded by
/// [`fold_case`] (Unicode simple case folding) when written, so search finds
/// the same rows on SQLite and PostgreSQL.
pub const FOLDED_COLUMNS: [Books; 3] = [
    Books::TitleFolded,
    Books::AuthorFolded,
    Books::SubtitleFolded,
];

/// The folded texts of a book, in [`FOLDED_COLUMNS`] order.
fn folded(title: &str, author: &str, subtitle: Option<&str>) -> [sea_query::Value; 3] {
    [
        fold_case(title).into_owned().into(),
        fold_case(author).into_owned().into(),
        subtitle.map(|s| fold_case(s).into_owned()).into(),
    ]
}

/// The `covers` table.
#[derive(Debug, Clone, Copy, Iden)]
pub enum Covers {
    /// The table.
    Table,
    /// `book_id`
    BookId,
    /// `content_type`
    ContentType,
    /// `data`
    Data,
}

/// Every column of `books`, in [`Book`] order.
pub const BOOK_COLUMNS: [Books; 11] = [
    Books::Id,
    Books::Isbn,
    Books::Title,
    Books::Author,
    Books::Genre,
    Books::Year,
    Books::Price,
    Books::Rating,
    Books::Subtitle,
    Books::PublishedAt,
    Books::InStock,
];

/// A connection pool to either database.
#[derive(Debug, Clone)]
pub enum Db {
    /// SQLite, and what keeps an in-memory database alive.
    Sqlite(SqlitePool, MemoryKeeper),
    /// PostgreSQL.
    Postgres(PgPool),
}

/// A connection to an in-memory SQLite database that is never used and
/// never closed while a [`Db`] clone lives: the database exists as long as
/// some connection to it is open, and the pool's own connection can be
/// closed and replaced (sqlx closes a connection whose query was abandoned
/// when the client hung up). Without it, the replacement opened an empty
/// database, and every later request was a 500 (`no such table: books`).
/// Empty (`None`) for a database file.
#[derive(Clone, Default)]
pub struct MemoryKeeper(Option<Arc<Mutex<SqliteConnection>>>);

impl std::fmt::Debug for MemoryKeeper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.0 {
            Some(_) => "MemoryKeeper(open)",
            None => "MemoryKeeper(none)",
        })
    }
}

/// How long a request waits for a database connection before it fails
/// (as 503): nothing hangs past it.
pub const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// The statement each new PostgreSQL connection runs: a `lock_timeout` of
/// 5 s for the session, the same bound as SQLite's busy timeout, unless
/// one is already set (not `0`) by the server, database or role, or by
/// the `DATABASE_URL`'s `options`, which is kept.
///
/// A statement waiting for a lock another session holds (`LOCK TABLE`, a
/// long transaction's row locks) then fails after it with `55P03`,
/// answered as 503; PostgreSQL's own default (`0`) waits for ever, which
/// kept a request and its pooled connection for as long as the lock was
/// held. A function call, not a startup parameter, so connection poolers
/// that refuse unknown startup parameters (PgBouncer) accept it.
pub const SET_LOCK_TIMEOUT: &str =
    "SELECT set_config('lock_timeout', '5s', false) WHERE current_setting('lock_timeout') = '0'";

/// Runs the same sea-query statement on either pool.
macro_rules! on_db {
    ($db:expr, $stmt:expr, |$sql:ident, $values:ident, $pool:ident| $body:expr) => {
        match $db {
            Db::Sqlite($pool, _) => {
                let ($sql, $values) = $stmt.build_sqlx(SqliteQueryBuilder);
                // Built by sea-query: identifiers from the code, every value bound.
                let $sql = sqlx::AssertSqlSafe($sql);
                $body
            }
            Db::Postgres($pool) => {
                let ($sql, $values) = $stmt.build_sqlx(PostgresQueryBuilder);
                let $sql = sqlx::AssertSqlSafe($sql);
                $body
            }
        }
    };
}

/// The scheme of a URL (`<scheme>://`) that is neither PostgreSQL's nor
/// SQLite's, as sqlx spells them: in lower case (`Postgres://` and
/// `SQLite://` are refused too, rather than taken for a SQLite file name).
pub(crate) fn other_scheme(url: &str) -> Option<&str> {
    let (scheme, _) = url.split_once("://")?;
    let is_scheme = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    let ours = matches!(scheme, "postgres" | "postgresql" | "sqlite");
    (is_scheme && !ours).then_some(scheme)
}

/// The key of the PostgreSQL advisory lock that [`Db::prepare`] holds
/// while it creates and seeds the tables (any constant unique to the
/// catalog: `b"catalog\0"` read as an integer).
pub const PREPARE_LOCK: i64 = i64::from_be_bytes(*b"catalog\0");

/// The steps of [`Db::prepare`] on one connection (a transaction): the
/// tables created when missing, then `rows` seed books when `books` is
/// empty. Evaluates to whether it seeded.
macro_rules! prepare_in {
    ($conn:expr, $builder:expr, $postgres:expr, $rows:expr) => {{
        for table in [books_table($postgres), covers_table()] {
            sqlx::query(sqlx::AssertSqlSafe(table.to_string($builder)))
                .execute($conn)
                .await?;
        }
        let mut count = Query::select().from(Books::Table).to_owned();
        count.expr(Expr::cust("COUNT(*)"));
        let (sql, values) = count.build_sqlx($builder);
        let (n,): (i64,) = sqlx::query_as_with(sqlx::AssertSqlSafe(sql), values)
            .fetch_one($conn)
            .await?;
        let seed = n == 0;
        if seed {
            for chunk in super::seed::books($rows).chunks(500) {
                let (sql, values) = insert_books(chunk).build_sqlx($builder);
                sqlx::query_with(sqlx::AssertSqlSafe(sql), values)
                    .execute($conn)
                    .await?;
            }
        }
        seed
    }};
}

/// On PostgreSQL, after seeding: moves the `books.id` sequence so the next
/// id is one above both the highest id in the table and the last one the
/// sequence gave (`is_called = false`: `nextval` returns exactly that).
const NEXT_ID_AFTER_SEED: &str = "SELECT setval(seq, GREATEST(\
     COALESCE((SELECT MAX(id) FROM books), 0), \
     COALESCE(pg_sequence_last_value(seq), 0)) + 1, false) \
     FROM (SELECT pg_get_serial_sequence('books', 'id')::regclass AS seq) AS s";

/// `books`; on PostgreSQL text columns use the `C` collation, so text sorts
/// by code point as on SQLite (and as the cursors' keyset comparison expects).
fn books_table(postgres: bool) -> TableCreateStatement {
    let text = |col: Books| {
        let mut def = ColumnDef::new(col);
        def.string();
        if postgres {
            def.extra("COLLATE \"C\"");
        }
        def
    };
    Table::create()
        .table(Books::Table)
        .if_not_exists()
        .col(
            ColumnDef::new(Books::Id)
                .big_integer()
                .not_null()
                .auto_increment()
                .primary_key(),
        )
        .col(text(Books::Isbn).not_null().unique_key())
        .col(text(Books::Title).not_null())
        .col(text(Books::Author).not_null())
        .col(text(Books::Genre).not_null())
        .col(ColumnDef::new(Books::Year).integer().not_null())
        .col(ColumnDef::new(Books::Price).double().not_null())
        .col(ColumnDef::new(Books::Rating).double().not_null())
        .col(text(Books::Subtitle).null())
        .col(ColumnDef::new(Books::PublishedAt).date().not_null())
        .col(ColumnDef::new(Books::InStock).boolean().not_null())
        .col(text(Books::TitleFolded).not_null())
        .col(text(Books::AuthorFolded).not_null())
        .col(text(Books::SubtitleFolded).null())
        .to_owned()
}

/// Which cover [`Db::put_cover`] may replace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replacing<'a> {
    /// Whatever cover the book has, or none (no precondition).
    Whatever,
    /// Only the cover whose bytes are exactly these (the compare-and-swap
    /// behind a precondition that saw this cover).
    Exactly(&'a [u8]),
    /// None: the cover is stored only while the book has none (a
    /// precondition that saw no cover, such as `If-None-Match: *`).
    Nothing,
}

/// What [`Db::put_cover`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoverWrite {
    /// The cover was stored where the book had none (a `201`).
    Created,
    /// The cover replaced the book's cover (a `204`).
    Replaced,
    /// Nothing was stored: the book's cover was not the one `replacing`
    /// named (a `412`).
    Changed,
    /// Nothing was stored: the book does not exist (any more; a `404`).
    NoBook,
}

fn covers_table() -> TableCreateStatement {
    Table::create()
        .table(Covers::Table)
        .if_not_exists()
        .col(
            ColumnDef::new(Covers::BookId)
                .big_integer()
                .not_null()
                .primary_key(),
        )
        .col(ColumnDef::new(Covers::ContentType).string().not_null())
        .col(ColumnDef::new(Covers::Data).blob().not_null())
        // A cover belongs to its book: deleting the book deletes it, and no
        // cover is stored for a book that is gone.
        .foreign_key(
            ForeignKey::create()
                .from(Covers::Table, Covers::BookId)
                .to(Books::Table, Books::Id)
                .on_delete(ForeignKeyAction::Cascade),
        )
        .to_owned()
}

fn insert_books(books: &[Book]) -> InsertStatement {
    let mut insert = Query::insert();
    insert
        .into_table(Books::Table)
        .columns(BOOK_COLUMNS.into_iter().chain(FOLDED_COLUMNS));
    for b in books {
        let [title, author, subtitle] = folded(&b.title, &b.author, b.subtitle.as_deref());
        insert.values_panic([
            b.id.into(),
            b.isbn.clone().into(),
            b.title.clone().into(),
            b.author.clone().into(),
            b.genre.clone().into(),
            b.year.into(),
            b.price.into(),
            b.rating.into(),
            b.subtitle.clone().into(),
            b.published_at.into(),
            b.in_stock.into(),
            title.into(),
            author.into(),
            subtitle.into(),
        ]);
    }
    insert
}

impl Db {
    /// Connects: `postgres://...` to PostgreSQL, `sqlite:...` (or a bare
    /// path) to that SQLite file, `None` to an in-memory SQLite database.
    ///
    /// # Errors
    /// The driver's error; `sqlx::Error::Configuration` naming the scheme
    /// (and nothing else of the URL, which may hold a password) for a URL
    /// of another scheme, such as `mysql://`, which would otherwise be
    /// taken for a SQLite file name.
    pub async fn connect(url: Option<&str>) -> Result<Self, sqlx::Error> {
        if let Some(scheme) = url.and_then(other_scheme) {
            return Err(sqlx::Error::Configuration(
                format!(
                    "DATABASE_URL: unsupported scheme `{scheme}`: use `postgres://...` or `sqlite:...`"
                )
                .into(),
            ));
        }
        match url {
            Some(u) if u.starts_with("postgres://") || u.starts_with("postgresql://") => {
                let pool = PgPoolOptions::new()
                    .max_connections(8)
                    .acquire_timeout(ACQUIRE_TIMEOUT)
                    .after_connect(|conn, _| {
                        Box::pin(async move {
                            conn.execute(SET_LOCK_TIMEOUT).await?;
                            Ok(())
                        })
                    })
                    .connect_lazy(u)?;
                Ok(Db::Postgres(pool))
            }
            Some(u) => {
                let options: SqliteConnectOptions = u
                    .parse::<SqliteConnectOptions>()?
                    .create_if_missing(true)
                    .foreign_keys(true);
                let pool = SqlitePoolOptions::new()
                    .max_connections(4)
                    .acquire_timeout(ACQUIRE_TIMEOUT)
                    .connect_with(options)
                    .await?;
                Ok(Db::Sqlite(pool, MemoryKeeper::default()))
            }
            None => {
                // A named, shared-cache in-memory database (sqlx names each
                // `sqlite::memory:` uniquely): the keeper's connection holds
                // it, the pool's one connection works on it.
                let options = "sqlite::memory:"
                    .parse::<SqliteConnectOptions>()?
                    .foreign_keys(true);
                let keeper = options.connect().await?;
                let pool = SqlitePoolOptions::new()
                    .min_connections(1)
                    .max_connections(1)
                    .idle_timeout(None)
                    .max_lifetime(None)
                    .acquire_timeout(ACQUIRE_TIMEOUT)
                    .connect_with(options)
                    .await?;
                Ok(Db::Sqlite(
                    pool,
                    MemoryKeeper(Some(Arc::new(Mutex::new(keeper)))),
                ))
            }
        }
    }

    /// Creates the tables when missing and seeds `rows` books when `books`
    /// is empty, in one transaction that holds the preparation lock: on
    /// PostgreSQL a transaction-level advisory lock
    /// ([`PREPARE_LOCK`]), on SQLite the write lock (`BEGIN IMMEDIATE`).
    /// Several instances starting at once on one empty database (replicas
    /// of a deployment) prepare it one after the other: the first creates
    /// and seeds, the others find it ready.
    ///
    /// # Errors
    /// The driver's error.
    pub async fn prepare(&self, rows: u32) -> Result<(), sqlx::Error> {
        match self {
            Db::Sqlite(pool, _) => {
                let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
                prepare_in!(&mut *tx, SqliteQueryBuilder, false, rows);
                tx.commit().await
            }
            Db::Postgres(pool) => {
                let mut tx = pool.begin().await?;
                // Another instance may hold the preparation lock for as
                // long as its seeding takes: this wait is bounded neither
                // by `SET_LOCK_TIMEOUT` nor by a `statement_timeout` of the
                // server, role or URL, which are for requests.
                (&mut *tx)
                    .execute("SET LOCAL lock_timeout = 0; SET LOCAL statement_timeout = 0")
                    .await?;
                sqlx::query("SELECT pg_advisory_xact_lock($1)")
                    .bind(PREPARE_LOCK)
                    .execute(&mut *tx)
                    .await?;
                if prepare_in!(&mut *tx, PostgresQueryBuilder, true, rows) {
                    // The seed writes its ids itself: the next id follows
                    // the highest ever given, the seed's or an earlier
                    // one's (a table emptied and seeded again never hands
                    // out a deleted book's id), and after an empty seed the
                    // first book gets id 1, as with SQLite's `AUTOINCREMENT`.
                    sqlx::query(NEXT_ID_AFTER_SEED).execute(&mut *tx).await?;
                    // Fresh statistics: the planner's estimates (`Prefer:
                    // count=estimated`) start from the seeded table.
                    sqlx::query("ANALYZE books").execute(&mut *tx).await?;
                }
                tx.commit().await
            }
        }
    }

    /// Runs a `SELECT` of book columns.
    ///
    /// # Errors
    /// The driver's error.
    pub async fn books(&self, select: &SelectStatement) -> Result<Vec<Book>, sqlx::Error> {
        on_db!(self, select, |sql, values, pool| {
            sqlx::query_as_with::<_, Book, _>(sql, values)
                .fetch_all(pool)
                .await
        })
    }

    /// `SELECT COUNT(*)` over a statement's `FROM` and `WHERE` (its columns,
    /// order and limits are replaced).
    ///
    /// # Errors
    /// The driver's error.
    pub async fn count(&self, mut select: SelectStatement) -> Result<i64, sqlx::Error> {
        select.clear_selects().clear_order_by();
        select.reset_limit().reset_offset();
        select.expr(Expr::cust("COUNT(*)"));
        on_db!(self, select, |sql, values, pool| {
            let (n,): (i64,) = sqlx::query_as_with(sql, values).fetch_one(pool).await?;
            Ok(n)
        })
    }

    /// Runs a statement that yields one integer (e.g. a `COUNT`).
    ///
    /// # Errors
    /// The driver's error.
    pub async fn scalar(&self, select: &SelectStatement) -> Result<i64, sqlx::Error> {
        on_db!(self, select, |sql, values, pool| {
            let (n,): (i64,) = sqlx::query_as_with(sql, values).fetch_one(pool).await?;
            Ok(n)
        })
    }

    /// The total of the estimated count strategy: on PostgreSQL the
    /// planner's row estimate of `filtered` (`EXPLAIN (FORMAT JSON)`, no
    /// rows read) when it is above [`PLANNER_MARGIN`] times `threshold`;
    /// otherwise (and always on SQLite) `capped`, a count stopped at
    /// `threshold + 1` rows, which is exact when at most `threshold` (so
    /// a planner that puts 9,990 rows at 10,091 after writes its
    /// statistics have not seen does not turn an exact total into an
    /// estimate), and above it an estimate: the planner's, or the count
    /// (a lower bound) when that is larger or there is no plan.
    ///
    /// # Errors
    /// The driver's error.
    pub async fn estimated_count(
        &self,
        filtered: &SelectStatement,
        capped: &SelectStatement,
        threshold: u64,
    ) -> Result<Total, sqlx::Error> {
        let mut planned = None;
        if let Db::Postgres(pool) = self {
            let (sql, values) = filtered.build_sqlx(PostgresQueryBuilder);
            let explain = format!("EXPLAIN (FORMAT JSON) {sql}");
            let row = sqlx::query_with(sqlx::AssertSqlSafe(explain), values)
                .fetch_one(pool)
                .await?;
            // A `json` column, read as its text (no sqlx `json` feature needed).
            let plan: String = sqlx::Row::try_get_unchecked(&row, 0)?;
            planned = serde_json::from_str(&plan)
                .ok()
                .and_then(|plan| explain_plan_rows(&plan));
            if let Some(rows) =
                planned.filter(|rows| *rows > threshold.saturating_mul(PLANNER_MARGIN))
            {
                return Ok(Total::Estimate(rows));
            }
        }
        let counted = u64::try_from(self.scalar(capped).await?).unwrap_or(0);
        Ok(if counted <= threshold {
            Total::Exact(counted)
        } else {
            Total::Estimate(planned.map_or(counted, |p| Ord::max(p, counted)))
        })
    }

    /// One book by id.
    ///
    /// # Errors
    /// The driver's error.
    pub async fn book(&self, id: i64) -> Result<Option<Book>, sqlx::Error> {
        let select = Query::select()
            .columns(BOOK_COLUMNS)
            .from(Books::Table)
            .and_where(Expr::col(Books::Id).eq(id))
            .to_owned();
        Ok(self.books(&select).await?.into_iter().next())
    }

    /// Whether a book has this ISBN.
    ///
    /// # Errors
    /// The driver's error.
    pub async fn isbn_exists(&self, isbn: &str) -> Result<bool, sqlx::Error> {
        let select = Query::select()
            .from(Books::Table)
            .and_where(Expr::col(Books::Isbn).eq(isbn))
            .to_owned();
        Ok(self.count(select).await? > 0)
    }

    /// Inserts a book; returns it with its new id.
    ///
    /// # Errors
    /// The driver's error (a unique violation for a duplicate ISBN).
    pub async fn insert(&self, new: &NewBook) -> Result<Book, sqlx::Error> {
        let published_at = new.published_at.unwrap_or_else(|| {
            time::Date::from_calendar_date(new.year, time::Month::January, 1)
                .unwrap_or(time::Date::MIN)
        });
        let [title, author, subtitle] = folded(&new.title, &new.author, new.subtitle.as_deref());
        let insert = Query::insert()
            .into_table(Books::Table)
            .columns(BOOK_COLUMNS.into_iter().skip(1).chain(FOLDED_COLUMNS))
            .values_panic([
                new.isbn.clone().into(),
                new.title.clone().into(),
                new.author.clone().into(),
                new.genre.clone().into(),
                new.year.into(),
                positive_zero(new.price).into(),
                positive_zero(new.rating).into(),
                new.subtitle.clone().into(),
                published_at.into(),
                new.in_stock.into(),
                title.into(),
                author.into(),
                subtitle.into(),
            ])
            .returning(Query::returning().columns(BOOK_COLUMNS))
            .to_owned();
        on_db!(self, insert, |sql, values, pool| {
            sqlx::query_as_with::<_, Book, _>(sql, values)
                .fetch_one(pool)
                .await
        })
    }

    /// Deletes a book and its cover; whether it existed.
    ///
    /// # Errors
    /// The driver's error.
    pub async fn delete(&self, id: i64) -> Result<bool, sqlx::Error> {
        // The book first: its cover goes with it (`ON DELETE CASCADE`), and
        // a cover upload that comes after finds no book to store it for.
        let books = Query::delete()
            .from_table(Books::Table)
            .and_where(Expr::col(Books::Id).eq(id))
            .to_owned();
        Ok(self.execute(&books).await? > 0)
    }

    /// Runs a write statement (built by sea-query, every value bound): the
    /// number of rows it changed.
    async fn execute<S: SqlxBinder>(&self, statement: &S) -> Result<u64, sqlx::Error> {
        on_db!(self, statement, |sql, values, pool| {
            sqlx::query_with(sql, values)
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })
    }

    /// Stores a book's cover, in one statement that also requires the book
    /// to exist (a book deleted while its cover was uploading gets none).
    /// `replacing` says which cover it may replace ([`Replacing`]): with
    /// `Exactly` or `Nothing`, two writers that saw the same state cannot
    /// both win.
    ///
    /// # Errors
    /// The driver's error.
    pub async fn put_cover(
        &self,
        id: i64,
        content_type: &str,
        data: Vec<u8>,
        replacing: Replacing<'_>,
    ) -> Result<CoverWrite, sqlx::Error> {
        let book_exists = || {
            Expr::exists(
                Query::select()
                    .expr(Expr::val(1))
                    .from(Books::Table)
                    .and_where(Expr::col(Books::Id).eq(id))
                    .to_owned(),
            )
        };
        let statement = |sql_result: Result<u64, sqlx::Error>| match sql_result {
            Ok(rows) => Ok(rows),
            // PostgreSQL: the book was deleted between the statement's
            // snapshot and its foreign-key check.
            Err(sqlx::Error::Database(e)) if e.is_foreign_key_violation() => Ok(0),
            Err(e) => Err(e),
        };
        // A first cover is an insert that does nothing when the book has
        // one; a replacement is an update. Each statement says by its row
        // count whether it wrote, so `Created` and `Replaced` are what
        // happened, not what an earlier read saw.
        if !matches!(replacing, Replacing::Exactly(_)) {
            let row = Query::select()
                .exprs([
                    Expr::val(id),
                    Expr::val(content_type),
                    Expr::val(data.clone()),
                ])
                .and_where(book_exists())
                .to_owned();
            let mut insert = Query::insert();
            insert
                .into_table(Covers::Table)
                .columns([Covers::BookId, Covers::ContentType, Covers::Data])
                .select_from(row)
                .map_err(|e| sqlx::Error::Protocol(e.to_string()))?
                .on_conflict(OnConflict::column(Covers::BookId).do_nothing().to_owned());
            let inserted = statement(self.execute(&insert).await)?;
            if inserted > 0 {
                return Ok(CoverWrite::Created);
            }
        }
        let mut update = Query::update();
        update
            .table(Covers::Table)
            .values([
                (Covers::ContentType, content_type.into()),
                (Covers::Data, data.into()),
            ])
            .and_where(Expr::col(Covers::BookId).eq(id))
            .and_where(book_exists());
        match replacing {
            Replacing::Whatever => {}
            Replacing::Exactly(current) => {
                update.and_where(Expr::col(Covers::Data).eq(current.to_vec()));
            }
            // The book has a cover (the insert did nothing): a 412.
            Replacing::Nothing => {
                return if self.book(id).await?.is_none() {
                    Ok(CoverWrite::NoBook)
                } else {
                    Ok(CoverWrite::Changed)
                };
            }
        }
        let updated = statement(self.execute(&update).await)?;
        if updated > 0 {
            Ok(CoverWrite::Replaced)
        } else if self.book(id).await?.is_none() {
            Ok(CoverWrite::NoBook)
        } else {
            Ok(CoverWrite::Changed)
        }
    }

    /// A book's cover: content type and bytes.
    ///
    /// # Errors
    /// The driver's error.
    pub async fn cover(&self, id: i64) -> Result<Option<(String, Vec<u8>)>, sqlx::Error> {
        let select = Query::select()
            .columns([Covers::ContentType, Covers::Data])
            .from(Covers::Table)
            .and_where(Expr::col(Covers::BookId).eq(id))
            .to_owned();
        on_db!(self, select, |sql, values, pool| {
            sqlx::query_as_with::<_, (String, Vec<u8>), _>(sql, values)
                .fetch_optional(pool)
                .await
        })
    }
}

/// `-0.0` stored as `0.0`: PostgreSQL keeps the sign of a zero and SQLite
/// does not, so the same book would read back (and hash to an `ETag`)
/// differently on the two databases.
fn positive_zero(x: f64) -> f64 {
    if x == 0.0 { 0.0 } else { x }
}

#[cfg(test)]
mod tests {
    use super::Db;

    /// A URL of another scheme is refused by name, without the rest of the
    /// URL (its password); SQLite URLs and bare paths are not.
    #[tokio::test]
    async fn other_schemes_are_refused_by_name() {
        for (url, scheme) in [
            ("mysql://user:s3cret@db/catalog", "mysql"),
            ("MariaDB://db/catalog", "MariaDB"),
            ("http://db/x", "http"),
        ] {
            let err = Db::connect(Some(url)).await.unwrap_err();
            assert_eq!(
                err.to_string(),
                format!(
                    "error with configuration: DATABASE_URL: unsupported scheme `{scheme}`: use `postgres://...` or `sqlite:...`"
                )
            );
        }
        assert!(super::other_scheme("sqlite://catalog.db").is_none());
        // sqlx reads only the lower-case schemes.
        assert_eq!(super::other_scheme("SQLite://catalog.db"), Some("SQLite"));
        assert_eq!(super::other_scheme("Postgres://u@h/db"), Some("Postgres"));
        assert!(super::other_scheme("postgresql://u@h/db").is_none());
        assert!(super::other_scheme("catalog.db").is_none());
        assert!(super::other_scheme("sqlite:dir/a://b.db").is_none());
    }
}
