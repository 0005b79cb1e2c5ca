// A random bot in Rust (standard library only, one file): plays any game.
// Build and run (build/ is ignored by git):
//   mkdir -p build && rustc -O -o build/random_bot_rs bots/examples/random_bot.rs && referee check-bot manila build/random_bot_rs
//
// Reads one JSON object per line; it needs only the top-level "type" and "id" and the
// length of "legal", found by the small scanner below (no JSON crate). Answers `start`
// with `ready`, each `act` with a random index into `legal`, exits after `end`.
use std::io::{self, BufRead, Write};

/// Top-level "type", "id" and number of "legal" entries of one JSON object line.
fn scan(line: &str) -> (String, i64, usize) {
    let b = line.as_bytes();
    let (mut depth, mut i, mut key, mut kind, mut id) = (0, 0, String::new(), String::new(), 0);
    let (mut counting, mut items) = (false, 0);
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            let start = i + 1;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            let text = &line[start..i.min(b.len())];
            if depth == 1 && key.is_empty() {
                key = text.to_string();
            } else if depth == 1 && key == "type" {
                kind = text.to_string();
            }
            if counting && depth == 2 && items == 0 { items = 1; }
        } else if c == b'{' || c == b'[' {
            if counting && depth == 2 && items == 0 { items = 1; }
            depth += 1;
            if depth == 2 && c == b'[' && key == "legal" { counting = true; }
        } else if c == b'}' || c == b']' {
            depth -= 1;
            if depth == 1 && counting { counting = false; }
        } else if c == b',' {
            if depth == 1 { key.clear(); } else if counting && depth == 2 { items += 1; }
        } else if c == b':' && depth == 1 && key == "id" {
            let digits: String = line[i + 1..].chars().take_while(|d| d.is_ascii_digit() || *d == '-').collect();
            id = digits.parse().unwrap_or(0);
        } else if counting && depth == 2 && items == 0 && c != b' ' {
            items = 1;
        }
        i += 1;
    }
    (kind, id, items)
}

fn main() {
    let mut seed: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1)
    }) | 1;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let (kind, id, legal) = scan(&line);
        match kind.as_str() {
            "start" => writeln!(out, r#"{{"type":"ready","name":"random-rust","version":"1"}}"#),
            "act" if legal > 0 => {
                seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17; // xorshift64
                writeln!(out, r#"{{"type":"action","id":{},"index":{}}}"#, id, seed % legal as u64)
            }
            "end" => break,
            _ => continue, // unknown message types are ignored
        }
        .and_then(|_| out.flush()) // the referee waits for this line: flush every reply
        .expect("stdout closed");
    }
}
