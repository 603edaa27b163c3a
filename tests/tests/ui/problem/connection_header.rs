// Headers of the connection's own framing are never sent from a problem
// (actix-web drops them), and its body is never encoded: each is refused,
// saying why.
use problem_core::Problem;

#[derive(Debug, Problem)]
#[problem(status = 503)]
struct Draining {
    #[problem(header = "Transfer-Encoding")]
    encoding: String,
    #[problem(header = "connection")]
    connection: String,
    #[problem(header = "Content-Encoding")]
    encoded: String,
    #[problem(header = "Retry-After")]
    retry: u32,
}

fn main() {}
