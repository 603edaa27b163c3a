//! Deep pagination on SQLite or PostgreSQL (BENCHMARKS.md,
//! `scripts/bench-pagination.sh`): the latency of one page at 1%, 50% and
//! 90% depth of a filtered collection, with offset pagination and with
//! keyset cursors, the same sort and filter, through the catalog's code
//! (`BookQuery`, the `books` table, the seed data set, sea-query and sqlx);
//! a backward keyset page (`prev_cursor`) at 90% depth; and the first
//! offset page with each count strategy (`count=exact`, `estimated`,
//! `none`), the total computed as the catalog computes it.
//!
//! - Data: `BENCH_DB` (default `/tmp/bench-pagination.db`, an SQLite file;
//!   a `postgres://` URL selects PostgreSQL, where the tables live in the
//!   schema `bench_pagination`, away from the catalog tests' `books`),
//!   seeded with `BENCH_ROWS` books (default 1,000,000) when empty.
//! - Query: `in_stock=true` (about 70% of the rows), sorted by the key
//!   (`id`), 20 per page; offset pages without the total count (so the
//!   figure is the page itself, not the `COUNT(*)`).
//! - Each page: parse the query (with the cursor), build the statement,
//!   run it, build the page (sealing the next cursor); `BENCH_SAMPLES`
//!   timed runs (default 15) after two warm-up runs; the median is reported
//!   with the fastest and slowest run.
//!
//! `cargo run --release -p examples --bin bench_pagination`

use std::time::{Duration, Instant};

use examples::catalog::Db;
use examples::catalog::db::{BOOK_COLUMNS, Books};
use examples::catalog::list::{BookQuery, count};
use problem_core::query::{CountStrategy, QueryConfig, TypedQuery};
use sea_query::{Query, SelectStatement};

const FILTER: &str = "in_stock=true";
const PER_PAGE: u64 = 20;

fn base() -> SelectStatement {
    Query::select()
        .columns(BOOK_COLUMNS)
        .from(Books::Table)
        .to_owned()
}

type Error = Box<dyn std::error::Error>;

/// One offset page: page `page` of the filtered collection.
async fn offset_page(db: &Db, config: &QueryConfig, page: u64) -> Result<usize, Error> {
    let qs = format!("{FILTER}&page={page}&per_page={PER_PAGE}");
    let query = TypedQuery::<BookQuery>::from_query_str(&qs, config)?;
    let mut select = base();
    query.apply_to(&mut select);
    let rows = db.books(&select).await?;
    Ok(query.page(rows, None).data.len())
}

/// The first offset page and its total, counted with the configuration's
/// strategy.
async fn counted_page(db: &Db, config: &QueryConfig) -> Result<usize, Error> {
    let qs = format!("{FILTER}&page=1&per_page={PER_PAGE}");
    let query = TypedQuery::<BookQuery>::from_query_str(&qs, config)?;
    let mut select = base();
    query.apply_to(&mut select);
    // As the catalog does: the page and its total side by side.
    let (rows, total) =
        futures_util::future::try_join(db.books(&select), count(db, &query)).await?;
    Ok(query.page_with_total(rows, total).data.len())
}

/// One keyset page after (or, for a previous cursor, before) `cursor`
/// (the first page without one).
async fn keyset_page(db: &Db, config: &QueryConfig, cursor: Option<&str>) -> Result<usize, Error> {
    let qs = match cursor {
        Some(c) => format!("{FILTER}&limit={PER_PAGE}&cursor={c}"),
        None => format!("{FILTER}&limit={PER_PAGE}"),
    };
    let query = TypedQuery::<BookQuery>::from_query_str(&qs, config)?;
    let mut select = base();
    query.apply_cursor_to(&mut select);
    let rows = db.books(&select).await?;
    let page = query.cursor_page(rows)?;
    Ok(page.data.len())
}

/// The cursor that continues after the first `skip` rows (set up once, not
/// timed): the row at `skip - 1` fetched by offset, sealed by the cursor
/// query exactly as a previous page would have sealed it.
async fn cursor_after(db: &Db, config: &QueryConfig, skip: u64) -> Result<String, Error> {
    let query = TypedQuery::<BookQuery>::from_query_str(&format!("{FILTER}&limit=1"), config)?;
    let mut select = base();
    query.apply_cursor_to(&mut select); // ORDER BY id LIMIT 2
    select.offset(skip - 1);
    let rows = db.books(&select).await?;
    query
        .cursor_page(rows)?
        .meta
        .next_cursor
        .ok_or_else(|| "no row at that depth".into())
}

struct Timing {
    median: Duration,
    min: Duration,
    max: Duration,
}

async fn time<F, Fut>(samples: usize, mut run: F) -> Result<Timing, Error>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<usize, Error>>,
{
    for _ in 0..2 {
        let n = run().await?;
        if n != PER_PAGE as usize {
            return Err(format!("a page had {n} rows, not {PER_PAGE}").into());
        }
    }
    let mut all = Vec::with_capacity(samples);
    for _ in 0..samples {
        let start = Instant::now();
        run().await?;
        all.push(start.elapsed());
    }
    all.sort();
    Ok(Timing {
        median: all[all.len() / 2],
        min: all[0],
        max: all[all.len() - 1],
    })
}

fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1000.0)
}

/// The previous cursor of the keyset page that starts after `skip` rows.
async fn cursor_before(db: &Db, config: &QueryConfig, skip: u64) -> Result<String, Error> {
    let after = cursor_after(db, config, skip).await?;
    let qs = format!("{FILTER}&limit={PER_PAGE}&cursor={after}");
    let query = TypedQuery::<BookQuery>::from_query_str(&qs, config)?;
    let mut select = base();
    query.apply_cursor_to(&mut select);
    let rows = db.books(&select).await?;
    query
        .cursor_page(rows)?
        .meta
        .prev_cursor
        .ok_or_else(|| "no previous page at that depth".into())
}

/// The database of `BENCH_DB`: an SQLite file, or PostgreSQL with the
/// schema `bench_pagination` first on the search path.
async fn connect(target: &str) -> Result<Db, Error> {
    if target.starts_with("postgres://") || target.starts_with("postgresql://") {
        let pool = sqlx::PgPool::connect(target).await?;
        sqlx::query("CREATE SCHEMA IF NOT EXISTS bench_pagination")
            .execute(&pool)
            .await?;
        pool.close().await;
        let sep = if target.contains('?') { '&' } else { '?' };
        let url = format!("{target}{sep}options=-c%20search_path%3Dbench_pagination");
        Ok(Db::connect(Some(&url)).await?)
    } else {
        Ok(Db::connect(Some(&format!("sqlite:{target}"))).await?)
    }
}

async fn run() -> Result<(), Error> {
    let path = std::env::var("BENCH_DB").unwrap_or_else(|_| "/tmp/bench-pagination.db".into());
    let rows: u32 = std::env::var("BENCH_ROWS")
        .ok()
        .map(|r| r.parse())
        .transpose()?
        .unwrap_or(1_000_000);
    let samples: usize = std::env::var("BENCH_SAMPLES")
        .ok()
        .map(|r| r.parse())
        .transpose()?
        .unwrap_or(15)
        .max(1);
    let db = connect(&path).await?;
    let start = Instant::now();
    db.prepare(rows).await?;
    let total = db
        .count(Query::select().from(Books::Table).to_owned())
        .await?;
    let matching = {
        let q = TypedQuery::<BookQuery>::from_query_str(FILTER, &QueryConfig::default())?;
        db.scalar(&q.count_statement(&base())).await?
    };
    let shown = path.split('@').next_back().unwrap_or(&path);
    eprintln!(
        "database {shown}: {total} rows, {matching} match `{FILTER}` (ready in {:.1} s)",
        start.elapsed().as_secs_f64()
    );
    let matching = u64::try_from(matching)?;
    let config = QueryConfig::default()
        .cursor_keys([b"bench-pagination-cursor-key-0123456789".to_vec()])?
        .count_total(false);

    println!("| depth | rows skipped | offset median ms (min-max) | keyset median ms (min-max) |");
    println!("|---|---|---|---|");
    let mut first: Option<(Duration, Duration)> = None;
    let mut results = Vec::new();
    for (label, depth) in [
        ("first page", 0.0),
        ("1%", 0.01),
        ("50%", 0.5),
        ("90%", 0.9),
    ] {
        let skip = ((matching as f64 * depth) as u64 / PER_PAGE) * PER_PAGE;
        let page = skip / PER_PAGE + 1;
        let offset = time(samples, || offset_page(&db, &config, page)).await?;
        let cursor = if skip == 0 {
            None
        } else {
            Some(cursor_after(&db, &config, skip).await?)
        };
        let keyset = time(samples, || keyset_page(&db, &config, cursor.as_deref())).await?;
        println!(
            "| {label} | {skip} | {} ({}-{}) | {} ({}-{}) |",
            ms(offset.median),
            ms(offset.min),
            ms(offset.max),
            ms(keyset.median),
            ms(keyset.min),
            ms(keyset.max)
        );
        let f = *first.get_or_insert((offset.median, keyset.median));
        results.push((label, offset.median, keyset.median, f));
    }
    println!();
    println!("| depth | offset / its first page | keyset / its first page |");
    println!("|---|---|---|");
    let first_keyset = first.map_or(Duration::ZERO, |(_, k)| k);
    for (label, offset, keyset, (o0, k0)) in results {
        println!(
            "| {label} | {:.2} | {:.2} |",
            offset.as_secs_f64() / o0.as_secs_f64(),
            keyset.as_secs_f64() / k0.as_secs_f64()
        );
    }

    // Backward: the previous page of the keyset page at 90% depth.
    let skip = ((matching as f64 * 0.9) as u64 / PER_PAGE) * PER_PAGE;
    let prev = cursor_before(&db, &config, skip).await?;
    let backward = time(samples, || keyset_page(&db, &config, Some(&prev))).await?;
    println!();
    println!("| keyset page | rows before it | median ms (min-max) | / first keyset page |");
    println!("|---|---|---|---|");
    println!(
        "| backward (`prev_cursor`) from 90% | {} | {} ({}-{}) | {:.2} |",
        skip - PER_PAGE,
        ms(backward.median),
        ms(backward.min),
        ms(backward.max),
        backward.median.as_secs_f64() / first_keyset.as_secs_f64()
    );

    // The first offset page with each count strategy.
    let mut by_strategy = Vec::new();
    for strategy in [
        CountStrategy::None,
        CountStrategy::Estimated,
        CountStrategy::Exact,
    ] {
        let config = config.clone().count_strategy(strategy);
        let t = time(samples, || counted_page(&db, &config)).await?;
        let query = TypedQuery::<BookQuery>::from_query_str(
            &format!("{FILTER}&page=1&per_page={PER_PAGE}"),
            &config,
        )?;
        let total = count(&db, &query).await?;
        by_strategy.push((strategy, t, total));
    }
    let none = by_strategy[0].1.median;
    println!();
    println!(
        "| first offset page, `Prefer` | total answered | median ms (min-max) | / `count=none` |"
    );
    println!("|---|---|---|---|");
    for (strategy, t, total) in by_strategy {
        let total = match total {
            None => "omitted".to_owned(),
            Some(t) if t.is_estimate() => format!("{} (estimate)", t.value()),
            Some(t) => format!("{} (exact)", t.value()),
        };
        println!(
            "| `count={}` | {total} | {} ({}-{}) | {:.2} |",
            strategy.as_str(),
            ms(t.median),
            ms(t.min),
            ms(t.max),
            t.median.as_secs_f64() / none.as_secs_f64()
        );
    }
    Ok(())
}

fn main() -> std::process::ExitCode {
    match actix_web::rt::System::new().block_on(run()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bench_pagination: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
