//! An orders API written only from the README's "Your first app": a
//! problem type, a listing on SQLite and one in memory, a guard, two
//! versions. Run it with `cargo run -p examples --bin first_app`.

use std::time::{Duration, UNIX_EPOCH};

use actix_web::{HttpRequest, HttpResponse, web};
use problem_core::pipeline::Body;
use problem_core::query::{BareList, Collection, Page, TypedQuery};
use problem_core::sea_query::{
    Alias, ColumnDef, Expr, ExprTrait, Query, SelectStatement, SqliteQueryBuilder, Table,
};
use problem_core::server::ProblemApp;
use problem_core::version::{self, Deprecation, V1, V2, VersionConfig, VersionStrategy};
use problem_core::{CollectionQuery, HttpConfigError, Problem, UnauthorizedException, versioned};
use sea_query_sqlx::SqlxBinder;
use serde::{Deserialize, Serialize};
use sqlx::sqlite::SqlitePoolOptions;
use sqlx::{AssertSqlSafe, SqlitePool};

/// An order, as stored and as served.
#[derive(Debug, Serialize, sqlx::FromRow)]
struct Order {
    id: i64,
    customer: String,
    total: f64,
}

/// What `POST /orders` reads.
#[derive(Debug, Deserialize)]
struct NewOrder {
    customer: String,
    total: f64,
}

/// The query parameters `GET /orders` accepts.
#[derive(CollectionQuery)]
#[query(key = "id", default_sort = "id", max_page_size = 50)]
#[allow(dead_code)]
struct OrderQuery {
    #[query(filter(eq, gt, lt), sort)]
    id: i64,
    // Qualified with its table: on SQLite an unknown column is then an error.
    #[query(filter(eq, contains), sort, search, column = "orders.customer")]
    customer: String,
    #[query(filter(gte, lte), sort, column = "orders.total")]
    total: f64,
}

/// The query parameters `GET /couriers` (in memory) accepts.
#[derive(CollectionQuery)]
#[query(key = "name", default_sort = "name")]
#[allow(dead_code)]
struct CourierQuery {
    #[query(filter(eq, in), sort, search)]
    name: String,
    #[query(filter(eq))]
    express: bool,
}

/// No order has this id.
#[derive(Debug, Problem)]
#[problem(
    status = 404,
    title = "Order not found",
    type = "/problems/order-not-found",
    detail = "Order {id} not found"
)]
struct OrderNotFound {
    id: i64,
}

/// A database error is an unknown error: a masked 500, logged once.
fn db_error(e: sqlx::Error) -> actix_web::Error {
    actix_web::error::ErrorInternalServerError(e)
}

fn orders_base() -> SelectStatement {
    Query::select()
        .columns([
            Alias::new("id"),
            Alias::new("customer"),
            Alias::new("total"),
        ])
        .from(Alias::new("orders"))
        .to_owned()
}

/// One offset page of orders from SQL, the total counted.
async fn order_page(
    pool: &SqlitePool,
    q: &TypedQuery<OrderQuery>,
) -> Result<Page<Order>, actix_web::Error> {
    let mut select = orders_base();
    q.apply_to(&mut select); // WHERE, ORDER BY, LIMIT/OFFSET; every value bound
    let (sql, values) = select.build_sqlx(SqliteQueryBuilder);
    let rows: Vec<Order> = sqlx::query_as_with(AssertSqlSafe(sql), values)
        .fetch_all(pool)
        .await
        .map_err(db_error)?;
    let (sql, values) = q
        .count_statement(&orders_base())
        .build_sqlx(SqliteQueryBuilder);
    let (total,): (i64,) = sqlx::query_as_with(AssertSqlSafe(sql), values)
        .fetch_one(pool)
        .await
        .map_err(db_error)?;
    Ok(q.page(rows, u64::try_from(total).ok()))
}

/// Version 1 (deprecated): a bare array, `X-Total-Count` and `Link`.
#[versioned("1.x")]
async fn list_orders_v1(
    pool: web::Data<SqlitePool>,
    q: Collection<OrderQuery>,
) -> Result<BareList<Order>, actix_web::Error> {
    Ok(order_page(&pool, &q).await?.into_bare())
}

/// Version 2: the `{"data", "meta", "links"}` envelope and `Link`.
#[versioned("2.x")]
async fn list_orders_v2(
    pool: web::Data<SqlitePool>,
    q: Collection<OrderQuery>,
) -> Result<Page<Order>, actix_web::Error> {
    order_page(&pool, &q).await
}

async fn show_order(
    pool: web::Data<SqlitePool>,
    id: web::Path<i64>,
) -> Result<web::Json<Order>, actix_web::Error> {
    let id = id.into_inner();
    let mut select = orders_base();
    select.and_where(Expr::col(Alias::new("id")).eq(id));
    let (sql, values) = select.build_sqlx(SqliteQueryBuilder);
    let order: Option<Order> = sqlx::query_as_with(AssertSqlSafe(sql), values)
        .fetch_optional(pool.get_ref())
        .await
        .map_err(db_error)?;
    order
        .map(web::Json)
        .ok_or_else(|| OrderNotFound { id }.into())
}

async fn create_order(
    pool: web::Data<SqlitePool>,
    new: Body<NewOrder>,
) -> Result<HttpResponse, actix_web::Error> {
    let new = new.0;
    let (sql, values) = Query::insert()
        .into_table(Alias::new("orders"))
        .columns([Alias::new("customer"), Alias::new("total")])
        .values_panic([new.customer.clone().into(), new.total.into()])
        .returning_col(Alias::new("id"))
        .build_sqlx(SqliteQueryBuilder);
    let (id,): (i64,) = sqlx::query_as_with(AssertSqlSafe(sql), values)
        .fetch_one(pool.get_ref())
        .await
        .map_err(db_error)?;
    Ok(HttpResponse::Created().json(Order {
        id,
        customer: new.customer,
        total: new.total,
    }))
}

/// In memory: the couriers, filtered, searched, sorted and paginated.
async fn list_couriers(
    q: Collection<CourierQuery>,
) -> Result<Page<serde_json::Value>, actix_web::Error> {
    let couriers = [
        serde_json::json!({"name": "Hermes", "express": true}),
        serde_json::json!({"name": "Pony", "express": false}),
    ];
    Ok(q.page_in_memory(couriers)?)
}

/// The guard of `POST /orders`: no token is a 401, a wrong one a 403.
async fn admin_only(req: HttpRequest) -> Result<bool, actix_web::Error> {
    match req.headers().get("authorization") {
        None => Err(UnauthorizedException::new()
            .with_header(("WWW-Authenticate", "Bearer"))
            .into()),
        Some(token) => Ok(token == "Bearer admin"),
    }
}

/// The `orders` table, with two orders, in an in-memory database: it
/// lives as long as one of the pool's connections is open, so they are
/// never closed for being idle or old (sqlx's defaults close them).
async fn connect() -> Result<SqlitePool, sqlx::Error> {
    let pool = SqlitePoolOptions::new()
        .idle_timeout(None)
        .max_lifetime(None)
        .connect("sqlite::memory:")
        .await?;
    let table = Table::create()
        .table(Alias::new("orders"))
        .col(
            ColumnDef::new(Alias::new("id"))
                .integer()
                .not_null()
                .primary_key()
                .auto_increment(),
        )
        .col(ColumnDef::new(Alias::new("customer")).string().not_null())
        .col(ColumnDef::new(Alias::new("total")).double().not_null())
        .to_string(SqliteQueryBuilder);
    sqlx::query(AssertSqlSafe(table)).execute(&pool).await?;
    sqlx::query("INSERT INTO orders (customer, total) VALUES ('ada', 12.5), ('grace', 40.0)")
        .execute(&pool)
        .await?;
    Ok(pool)
}

/// The application: its routes, the pool as app data, versions 1 and 2.
fn app(pool: SqlitePool) -> Result<ProblemApp, HttpConfigError> {
    let versions = VersionConfig::builder(VersionStrategy::default()) // path, then header, then query
        .default_version(V2)
        .supported_versions([V1, V2])
        .deprecated_with(
            V1,
            Deprecation::new().sunset(UNIX_EPOCH + Duration::from_secs(1_830_297_599)),
        )
        .build()?;
    ProblemApp::builder()
        .tag("orders")
        .versioning(versions)
        .configure(move |c| {
            c.app_data(web::Data::new(pool.clone()));
        })
        .routes(|r| {
            r.get(
                "/orders",
                version::versioned![list_orders_v1, list_orders_v2],
            )
            .get("/orders/{id}", show_order)
            .get("/couriers", list_couriers)
            .post("/orders", create_order)
            .guarded(admin_only)
        })
        .build()
}

#[actix_web::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Log lines on stderr, filtered by RUST_LOG (errors only without it).
    // actix-http logs each request head it cannot parse at ERROR; a client
    // can write those, so add `actix_http::h1::dispatcher=off` to RUST_LOG
    // (the catalog's default) to keep them out.
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();
    let app = app(connect().await?)?;
    app.listen("127.0.0.1:8080").await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use actix_web::{App, test};

    #[actix_web::test]
    async fn version_2_list_with_fields() {
        let app = super::app(super::connect().await.unwrap()).unwrap();
        let a = app.clone();
        let svc = test::init_service(
            App::new()
                .configure(move |c| a.configure(c))
                .wrap(app.versioning())
                .wrap(app.pipeline())
                .wrap(app.conditional()),
        )
        .await;
        let res = test::call_service(
            &svc,
            test::TestRequest::get()
                .uri("/orders?fields=id,customer&sort=-total")
                .to_request(),
        )
        .await;
        assert_eq!(res.status(), 200);
        assert_eq!(
            String::from_utf8(test::read_body(res).await.to_vec()).unwrap(),
            concat!(
                r#"{"data":[{"id":2,"customer":"grace"},{"id":1,"customer":"ada"}],"#,
                r#""meta":{"page":1,"per_page":20,"total":2,"total_pages":1},"#,
                r#""links":{"self":"/orders?fields=id,customer&sort=-total","#,
                r#""first":"/orders?fields=id,customer&sort=-total&page=1","#,
                r#""last":"/orders?fields=id,customer&sort=-total&page=1"}}"#
            )
        );
    }
}
