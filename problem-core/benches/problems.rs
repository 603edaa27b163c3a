//! Problem documents to bytes: ours against `http-api-problem` and
//! `problem_details`, each comparison in one criterion group so both sides
//! run in the same process and the same run (BENCHMARKS.md).
//!
//! Every side builds the problem from scratch and serializes it to JSON
//! bytes; the three documents of a group are the same JSON object (checked
//! once before measuring, not timed).
//!
//! Run: `cargo bench -p problem-core --bench problems`.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use http_api_problem::HttpApiProblem;
use problem_core::{Issue, IssueLocation, NotFoundException, Problem, ValidationException};
use serde::Serialize;

const DETAIL_404: &str = "Book 7 not found";
const INSTANCE_404: &str = "/books/7";
const INSTANCE_400: &str = "/books";

/// Ours: what the error pipeline sends for a 4xx, body only: the problem
/// document for the request path as JSON bytes.
fn to_bytes(problem: &impl Problem, instance: &str) -> Vec<u8> {
    problem.to_problem_json(instance).expect("builds")
}

fn ours_404() -> Vec<u8> {
    to_bytes(
        &NotFoundException::new().with_detail(DETAIL_404),
        INSTANCE_404,
    )
}

fn http_api_problem_404() -> Vec<u8> {
    HttpApiProblem::with_title(http_api_problem::StatusCode::NOT_FOUND)
        .type_url("about:blank")
        .detail(DETAIL_404)
        .instance(INSTANCE_404)
        .json_bytes()
}

fn problem_details_404() -> Vec<u8> {
    let p = problem_details::ProblemDetails::from_status_code(http::StatusCode::NOT_FOUND)
        .with_type(problem_details::ProblemType::default())
        .with_detail(DETAIL_404)
        .with_instance(http::Uri::from_static(INSTANCE_404));
    serde_json::to_vec(&p).expect("problem_details serializes")
}

/// An issue as the anchors carry it: a plain struct with the same members.
#[derive(Serialize)]
struct AnchorIssue {
    location: &'static str,
    name: String,
    code: &'static str,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    allowed: Option<Vec<&'static str>>,
}

#[derive(Serialize)]
struct AnchorExtensions {
    issues: Vec<AnchorIssue>,
}

const SORTABLE: [&str; 3] = ["id", "title", "year"];

fn ours_issues() -> Vec<Issue> {
    vec![
        Issue::new(
            IssueLocation::Query,
            "per_page",
            "invalid_value",
            "`abc` is not a valid integer",
        )
        .with("expected", "integer"),
        Issue::new(
            IssueLocation::Query,
            "sort",
            "not_sortable",
            "`isbn` is not a sortable field",
        )
        .with("allowed", SORTABLE),
        Issue::new(IssueLocation::Body, "/title", "length", "must not be empty"),
        Issue::new(
            IssueLocation::Body,
            "/year",
            "range",
            "must be between 1450 and 2100",
        ),
        Issue::new(
            IssueLocation::Path,
            "id",
            "invalid_value",
            "`x` is not a valid integer",
        )
        .with("expected", "integer"),
    ]
}

fn anchor_issues() -> Vec<AnchorIssue> {
    let issue = |location, name: &str, code, message: &str| AnchorIssue {
        location,
        name: name.to_owned(),
        code,
        message: message.to_owned(),
        expected: None,
        allowed: None,
    };
    vec![
        AnchorIssue {
            expected: Some("integer"),
            ..issue(
                "query",
                "per_page",
                "invalid_value",
                "`abc` is not a valid integer",
            )
        },
        AnchorIssue {
            allowed: Some(SORTABLE.to_vec()),
            ..issue(
                "query",
                "sort",
                "not_sortable",
                "`isbn` is not a sortable field",
            )
        },
        issue("body", "/title", "length", "must not be empty"),
        issue("body", "/year", "range", "must be between 1450 and 2100"),
        AnchorIssue {
            expected: Some("integer"),
            ..issue("path", "id", "invalid_value", "`x` is not a valid integer")
        },
    ]
}

fn ours_400() -> Vec<u8> {
    ours_400_from(ours_issues())
}

fn ours_400_from(issues: Vec<Issue>) -> Vec<u8> {
    to_bytes(&ValidationException::new(issues), INSTANCE_400)
}

fn http_api_problem_400() -> Vec<u8> {
    http_api_problem_400_from(anchor_issues())
}

fn http_api_problem_400_from(issues: Vec<AnchorIssue>) -> Vec<u8> {
    HttpApiProblem::with_title(http_api_problem::StatusCode::BAD_REQUEST)
        .type_url("about:blank")
        .detail("Request validation failed")
        .instance(INSTANCE_400)
        .value("issues", &issues)
        .json_bytes()
}

fn problem_details_400() -> Vec<u8> {
    problem_details_400_from(anchor_issues())
}

fn problem_details_400_from(issues: Vec<AnchorIssue>) -> Vec<u8> {
    let p = problem_details::ProblemDetails::from_status_code(http::StatusCode::BAD_REQUEST)
        .with_type(problem_details::ProblemType::default())
        .with_detail("Request validation failed")
        .with_instance(http::Uri::from_static(INSTANCE_400))
        .with_extensions(AnchorExtensions { issues });
    serde_json::to_vec(&p).expect("problem_details serializes")
}

/// The three sides produce the same JSON object (member order aside:
/// `http-api-problem` keeps extensions in a `HashMap`).
fn same_document(sides: [fn() -> Vec<u8>; 3]) {
    let docs: Vec<serde_json::Value> = sides
        .iter()
        .map(|f| serde_json::from_slice(&f()).expect("valid JSON"))
        .collect();
    assert_eq!(docs[0], docs[1], "ours vs http-api-problem");
    assert_eq!(docs[0], docs[2], "ours vs problem_details");
}

fn problem_404(c: &mut Criterion) {
    same_document([ours_404, http_api_problem_404, problem_details_404]);
    let mut g = c.benchmark_group("problem_404_to_bytes");
    g.bench_function("ours", |b| b.iter(|| black_box(ours_404())));
    g.bench_function("http-api-problem", |b| {
        b.iter(|| black_box(http_api_problem_404()))
    });
    g.bench_function("problem_details", |b| {
        b.iter(|| black_box(problem_details_404()))
    });
    g.finish();
}

fn validation_400(c: &mut Criterion) {
    same_document([ours_400, http_api_problem_400, problem_details_400]);
    let mut g = c.benchmark_group("validation_400_5_issues_to_bytes");
    g.bench_function("ours", |b| b.iter(|| black_box(ours_400())));
    g.bench_function("http-api-problem", |b| {
        b.iter(|| black_box(http_api_problem_400()))
    });
    g.bench_function("problem_details", |b| {
        b.iter(|| black_box(problem_details_400()))
    });
    g.finish();
}

/// The same documents, the issues built before the clock starts (each side
/// in its own form): the problem built from them and serialized.
fn validation_400_prebuilt(c: &mut Criterion) {
    let mut g = c.benchmark_group("validation_400_5_issues_prebuilt_to_bytes");
    g.bench_function("ours", |b| {
        b.iter_batched(ours_issues, ours_400_from, BatchSize::SmallInput)
    });
    g.bench_function("http-api-problem", |b| {
        b.iter_batched(
            anchor_issues,
            http_api_problem_400_from,
            BatchSize::SmallInput,
        )
    });
    g.bench_function("problem_details", |b| {
        b.iter_batched(
            anchor_issues,
            problem_details_400_from,
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

criterion_group!(
    benches,
    problem_404,
    validation_400,
    validation_400_prebuilt
);
criterion_main!(benches);
