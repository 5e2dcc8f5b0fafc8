//! Any bytes given to the table reader (raw or packed) must give a table or an
//! error, never a panic; reads through an opened table must not panic either.
#![no_main]
use libfuzzer_sys::fuzz_target;
use nimrod::table::Table;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    if let Ok(t) = Table::from_bytes(Path::new("fuzz.nmt"), data.to_vec()) {
        let _ = t.verify();
        for slot in [0, 1, t.len() / 2, t.len().saturating_sub(1), t.len()] {
            let _ = t.get::<u8>(slot);
            let _ = t.get::<u16>(slot);
            let _ = t.get::<u32>(slot);
            let _ = t.key_at(slot);
        }
        let _ = t.slot_of_key(u64::from_le_bytes(data.get(..8).and_then(|b| b.try_into().ok()).unwrap_or([0; 8])));
    }
});
