//! The deterministic seed data set: the same rows on every start
//! (a ChaCha8 PRNG with a fixed seed).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use time::{Date, Month};

use super::model::Book;

/// The genres books are drawn from.
pub const GENRES: [&str; 10] = [
    "biography",
    "drama",
    "fantasy",
    "fiction",
    "history",
    "mystery",
    "philosophy",
    "poetry",
    "romance",
    "science",
];

const ADJECTIVES: [&str; 16] = [
    "Silent",
    "Crimson",
    "Hidden",
    "Last",
    "Golden",
    "Broken",
    "Distant",
    "Quiet",
    "Burning",
    "Winter",
    "Secret",
    "Endless",
    "Fallen",
    "Bright",
    "Wandering",
    "Forgotten",
];
const NOUNS: [&str; 16] = [
    "Night", "River", "Garden", "Empire", "Mirror", "Harbor", "Storm", "Letter", "Orchard",
    "Kingdom", "Rain", "Voyage", "Lantern", "Mountain", "Archive", "Song",
];
const FIRST: [&str; 12] = [
    "Ada", "Jorge", "Toni", "Haruki", "Chinua", "Virginia", "Italo", "Wisława", "Gabriel",
    "Clarice", "Naguib", "Ursula",
];
const LAST: [&str; 12] = [
    "Lovelace",
    "Borges",
    "Morrison",
    "Murakami",
    "Achebe",
    "Woolf",
    "Calvino",
    "Szymborska",
    "Márquez",
    "Lispector",
    "Mahfouz",
    "Le Guin",
];
const SUBTITLES: [&str; 6] = [
    "A Novel",
    "Collected Stories",
    "A History",
    "Poems",
    "Notes and Letters",
    "An Inquiry",
];

/// The ISBN-13 of seed row `id`: prefix 978, nine digits of `id`, check digit.
pub fn isbn13(id: i64) -> String {
    let body = format!("978{:09}", id.rem_euclid(1_000_000_000));
    let sum: u32 = body
        .bytes()
        .enumerate()
        .map(|(i, b)| u32::from(b - b'0') * if i % 2 == 0 { 1 } else { 3 })
        .sum();
    format!("{body}{}", (10 - sum % 10) % 10)
}

/// The first `rows` books of the seed data set, ids `1..=rows`.
pub fn books(rows: u32) -> Vec<Book> {
    let mut rng = ChaCha8Rng::seed_from_u64(0x000C_A7A1_0600);
    (1..=i64::from(rows))
        .map(|id| {
            let year: i32 = rng.random_range(1900..=2025);
            let month = Month::try_from(rng.random_range(1..=12u8)).unwrap_or(Month::January);
            let day = rng.random_range(1..=28u8);
            let published_at = Date::from_calendar_date(year, month, day).unwrap_or(Date::MIN);
            let title = format!(
                "The {} {}",
                ADJECTIVES[rng.random_range(0..ADJECTIVES.len())],
                NOUNS[rng.random_range(0..NOUNS.len())]
            );
            let author = format!(
                "{} {}",
                FIRST[rng.random_range(0..FIRST.len())],
                LAST[rng.random_range(0..LAST.len())]
            );
            let subtitle = if rng.random_range(0..3) == 0 {
                None
            } else {
                Some(SUBTITLES[rng.random_range(0..SUBTITLES.len())].to_owned())
            };
            Book {
                id,
                isbn: isbn13(id),
                title,
                author,
                genre: GENRES[rng.random_range(0..GENRES.len())].to_owned(),
                year,
                price: f64::from(rng.random_range(500..=8000u32)) / 100.0,
                rating: f64::from(rng.random_range(0..=50u32)) / 10.0,
                subtitle,
                published_at,
                in_stock: rng.random_bool(0.7),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_well_formed() {
        let a = books(500);
        assert_eq!(a, books(500));
        assert_eq!(a.len(), 500);
        let nulls = a.iter().filter(|b| b.subtitle.is_none()).count();
        assert!((120..=220).contains(&nulls), "about a third null: {nulls}");
        assert!(
            a.iter()
                .all(|b| b.isbn.len() == 13 && (0.0..=5.0).contains(&b.rating))
        );
        assert_eq!(isbn13(1), "9780000000019");
    }
}
