use problem_core::versioned;

#[versioned("1.0")]
async extern "C" fn list_books_v1() -> u8 {
    1
}

fn main() {}
