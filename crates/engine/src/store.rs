//! Where a game's tables are kept between processes.
//!
//! Building Scala's endgame tables takes minutes of CPU; a process that
//! finds them already built loads them in about a second. The engine does
//! no I/O: it names each part of its tables, writes and checks the bytes,
//! and hands them to a [`TableStore`] that keeps them (the service's is a
//! folder, `parlour serve --endgame-tables-dir`). A part the store cannot
//! give back, or gives back damaged, is built again.

use std::collections::HashMap;
use std::sync::Mutex;

/// Keeps the images of tables (bytes the engine made and checks) by name.
pub trait TableStore: Sync {
    /// The image kept under `name`, if any. A store that fails to read one
    /// reports it itself and answers `None`: the part is then built.
    fn load(&self, name: &str) -> Option<Vec<u8>>;
    /// Keeps `image` under `name`, in place of any image kept before. A
    /// store that fails reports it itself: the tables built stay in use.
    fn save(&self, name: &str, image: &[u8]);
    /// The image kept under `name` was not used, for `why` (damaged, or
    /// made by another version of the tables); it is built again and saved.
    fn rejected(&self, name: &str, why: &str);
    /// Whether [`TableStore::save`] keeps anything: when not, no image is
    /// made for it.
    fn keeps(&self) -> bool {
        true
    }
}

/// Keeps nothing: every part is built.
pub struct NoStore;

impl TableStore for NoStore {
    fn load(&self, _name: &str) -> Option<Vec<u8>> {
        None
    }

    fn save(&self, _name: &str, _image: &[u8]) {}

    fn rejected(&self, _name: &str, _why: &str) {}

    fn keeps(&self) -> bool {
        false
    }
}

/// Keeps the images in memory, and what was saved and rejected (tests).
#[derive(Default)]
pub struct MemoryStore {
    /// The images by name.
    pub images: Mutex<HashMap<String, Vec<u8>>>,
    /// The name of each image saved, in order.
    pub saved: Mutex<Vec<String>>,
    /// Each rejection: the name and why.
    pub rejections: Mutex<Vec<(String, String)>>,
}

impl TableStore for MemoryStore {
    fn load(&self, name: &str) -> Option<Vec<u8>> {
        self.images.lock().unwrap_or_else(|e| e.into_inner()).get(name).cloned()
    }

    fn save(&self, name: &str, image: &[u8]) {
        self.images.lock().unwrap_or_else(|e| e.into_inner()).insert(name.to_string(), image.to_vec());
        self.saved.lock().unwrap_or_else(|e| e.into_inner()).push(name.to_string());
    }

    fn rejected(&self, name: &str, why: &str) {
        self.rejections.lock().unwrap_or_else(|e| e.into_inner()).push((name.to_string(), why.to_string()));
    }
}

/// FNV-1a, 64 bits, over `bytes` continuing from `hash` (start with
/// [`FNV_START`]): the checksum of a stored image, to catch a damaged or
/// truncated file, not a forged one.
pub fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= b as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// FNV-1a's offset basis.
pub const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_has_the_published_values() {
        assert_eq!(fnv1a(FNV_START, b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(FNV_START, b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(FNV_START, b"foobar"), 0x8594_4171_f739_67e8);
    }
}
