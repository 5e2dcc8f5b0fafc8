fn main() {
    let (g, _) = nimrod::games::grundy::sparse::values(1 << 18, |_| {}).unwrap();
    let isr = nimrod::games::grundy::sparse::is_rare_value;
    for n in [200_001usize, 200_002, 200_003, 250_000] {
        let c = g[n];
        let mut first = vec![usize::MAX; 512];
        for a in 1..(n + 1) / 2 {
            let v = (g[a] ^ g[n - a]) as usize;
            if first[v] == usize::MAX {
                first[v] = a;
            }
        }
        let mut worst: Vec<(usize, usize)> = (0..c as usize)
            .filter(|&v| isr(v as u16))
            .map(|v| (first[v], v))
            .collect();
        worst.sort();
        println!(
            "n={n} G={c} targets={} last witnesses {:?}",
            worst.len(),
            &worst[worst.len().saturating_sub(5)..]
        );
    }
}
