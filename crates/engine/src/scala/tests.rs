use super::*;
use crate::playout::perft;

#[test]
fn scratch_perft() {
    for v in Variant::ALL {
        let g = Scala::new(v);
        let s = g.start();
        let mut m = vec![];
        g.legal_moves(&s, &mut m);
        let names: Vec<String> = m.iter().map(|&x| g.move_notation(&s, x)).collect();
        eprintln!("{:?} {} {:?}", v, m.len(), names);
        for d in 1..=3 {
            eprintln!("{:?} d{} = {}", v, d, perft(&g, &s, d));
        }
    }
}
