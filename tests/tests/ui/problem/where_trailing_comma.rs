// A generic type whose `where` clause ends with a comma (as rustfmt writes
// a multi-line one), with one bad attribute and used as a problem: the bad
// attribute is the only error.
use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 400, titel = "Bad value")]
struct Wrapped<T>
where
    T: std::fmt::Debug + serde::Serialize + Send + Sync + 'static,
{
    value: T,
}

fn as_problem(_: &dyn Problem) {}

fn main() {
    as_problem(&Wrapped { value: 7 });
}
