//! The data files each game keeps in its own folder, gathered at build time
//! (`build.rs`) into one text each: a game's folder holds its perft counts
//! and benchmark positions, and nothing outside it lists them.
//!
//! Each file's lines are preceded by a `#@ src/<game>/<file>` line (a
//! comment to the files' own format); [`lines`] hands back every entry
//! with the file and line it came from.

/// Every `src/<game>/perft.txt`: `game | variant | counts from depth 1 |
/// position text` (checked by `tests/perft.rs`).
pub const PERFT: &str = include_str!(concat!(env!("OUT_DIR"), "/perft.txt"));

/// Every `src/<game>/positions.txt`: the benchmark positions, `game |
/// variant | label | origin | perft d1,d2 | position text` (checked by
/// `tests/bench_positions.rs`, used by the benches and `parlour bench`).
pub const POSITIONS: &str = include_str!(concat!(env!("OUT_DIR"), "/positions.txt"));

/// An entry of a gathered data file, with where it was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry<'a> {
    /// The file, e.g. `src/scala/perft.txt`.
    pub file: &'a str,
    /// Its line number in that file, from 1.
    pub line: usize,
    /// The line, trimmed.
    pub text: &'a str,
}

impl std::fmt::Display for Entry<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} line {}", self.file, self.line)
    }
}

/// The entries of a gathered text: blank lines and `#` comments left out.
pub fn lines(gathered: &str) -> impl Iterator<Item = Entry<'_>> {
    let mut file = "";
    let mut line = 0;
    gathered.lines().filter_map(move |l| {
        if let Some(name) = l.strip_prefix("#@ ") {
            file = name;
            line = 0;
            return None;
        }
        line += 1;
        let text = l.trim();
        (!text.is_empty() && !text.starts_with('#')).then_some(Entry { file, line, text })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_name_their_file_and_line() {
        let text = "#@ src/a/perft.txt\n# c\n\nx | 1\n#@ src/b/perft.txt\ny | 2\n";
        let got: Vec<_> = lines(text).map(|e| (e.file, e.line, e.text)).collect();
        assert_eq!(got, [("src/a/perft.txt", 3, "x | 1"), ("src/b/perft.txt", 1, "y | 2")]);
    }

    #[test]
    fn every_game_folder_gave_its_files() {
        for name in ["contiguity", "scala", "shoulder", "squeeze"] {
            assert!(PERFT.contains(&format!("#@ src/{name}/perft.txt")), "{name} perft");
            assert!(POSITIONS.contains(&format!("#@ src/{name}/positions.txt")), "{name} positions");
        }
    }
}
