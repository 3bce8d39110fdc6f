//! Board pictures: a game description and a state drawn as SVG (the
//! RenderBoard call).
//!
//! The shape of the cells comes from the board's own links: a board whose
//! cells link `next`/`prev` is a ring (Contiguity: each cell an annular
//! sector around the centre); one with `n`/`s` links is a square grid
//! (squares; Scala's hole is simply where no cell is); any other is a hex grid
//! (pointy-top hexagons). Sizes follow the distance between linked cells.
//! Drawing is in board units (the description's x and y) inside a `viewBox`;
//! `width` sets the pixel size.

use crate::pb;
use std::collections::HashMap;
use std::fmt::Write as _;

/// How to draw.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The move that led to the state: path arrow and crossed-out captures.
    pub last_move: Option<pb::Move>,
    /// Cells to highlight.
    pub highlight: Vec<String>,
    /// Dark theme instead of light.
    pub dark: bool,
    /// Width in pixels.
    pub width: u32,
    /// Write cell names.
    pub cell_names: bool,
}

/// The default width in pixels.
pub const DEFAULT_WIDTH: u32 = 480;
/// The largest width in pixels.
pub const MAX_WIDTH: u32 = 4096;

/// A drawn picture.
#[derive(Clone, Debug)]
pub struct Picture {
    pub svg: String,
    pub width: u32,
    pub height: u32,
}

struct Theme {
    background: &'static str,
    cell: &'static str,
    cell_dark: &'static str,
    line: &'static str,
    text: &'static str,
    highlight: &'static str,
    arrow: &'static str,
    capture: &'static str,
}

const LIGHT: Theme = Theme {
    background: "#faf7f0",
    cell: "#e9dfc8",
    cell_dark: "#b99b6b",
    line: "#6b5a3e",
    text: "#3b3326",
    highlight: "#2f9e44",
    arrow: "#1c7ed6",
    capture: "#e03131",
};

const DARK: Theme = Theme {
    background: "#1d1f23",
    cell: "#3a3f47",
    cell_dark: "#2a2d33",
    line: "#8a93a0",
    text: "#d8dde4",
    highlight: "#69db7c",
    arrow: "#4dabf7",
    capture: "#ff6b6b",
};

/// The shape every cell of a board has.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    /// Annular sectors around (0, 0); `sectors` cells to a lane.
    Ring { sectors: usize },
    /// Squares of side `size`.
    Square { size: f64 },
    /// Pointy-top hexagons `size` apart (centre to centre).
    Hex { size: f64 },
}

fn shape(cells: &[pb::Cell], at: &HashMap<&str, (f64, f64)>) -> Shape {
    let dirs = |d: &str| cells.iter().any(|c| c.neighbors.iter().any(|n| n.relation == "adjacent" && n.direction == d));
    // The nearest linked cell's distance.
    let mut spacing = f64::INFINITY;
    for c in cells {
        for n in c.neighbors.iter().filter(|n| n.relation == "adjacent") {
            if let Some(&(x, y)) = at.get(n.cell.as_str()) {
                let d = ((x - c.x).powi(2) + (y - c.y).powi(2)).sqrt();
                if d > 1e-6 {
                    spacing = spacing.min(d);
                }
            }
        }
    }
    if !spacing.is_finite() {
        spacing = 1.0;
    }
    if dirs("next") {
        // As many sectors as cells on the first cell's circle.
        let r0 = cells.first().map_or(1.0, |c| c.x.hypot(c.y));
        let ring = cells.iter().filter(|c| (c.x.hypot(c.y) - r0).abs() < 1e-3).count();
        Shape::Ring { sectors: ring.max(3) }
    } else if dirs("n") && dirs("s") {
        Shape::Square { size: spacing }
    } else {
        Shape::Hex { size: spacing }
    }
}

fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    esc_into(&mut o, s);
    o
}

/// `s` escaped for XML text and attributes, appended to `o`.
fn esc_into(o: &mut String, s: &str) {
    if !s.bytes().any(|b| matches!(b, b'&' | b'<' | b'>' | b'"' | b'\'')) {
        o.push_str(s);
        return;
    }
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
}

/// The fill of a piece by its owner (the position key) and seat order.
fn piece_colours(owner: &str, seat: Option<usize>) -> (&'static str, &'static str) {
    match owner {
        "white" => ("#f8f9fa", "#343a40"),
        "black" => ("#212529", "#adb5bd"),
        "red" => ("#e03131", "#5c0f0f"),
        "green" => ("#2f9e44", "#0b3d17"),
        "blue" => ("#1971c2", "#0a2d52"),
        "stones" => ("#868e96", "#343a40"),
        _ => match seat {
            Some(0) => ("#f8f9fa", "#343a40"),
            Some(1) => ("#212529", "#adb5bd"),
            _ => ("#f59f00", "#5f3b00"),
        },
    }
}

/// The fill of a cell by its tags.
fn cell_fill(tags: &[String], theme: &Theme) -> &'static str {
    for t in tags {
        match t.as_str() {
            "colour:dark" => return theme.cell_dark,
            "colour:red" => return "#f3c1c1",
            "colour:green" => return "#c3e6cb",
            "colour:blue" => return "#c5d8f2",
            _ => {}
        }
    }
    theme.cell
}

/// The outline of a cell, as SVG path data, and its bounding box.
fn outline(shape: Shape, x: f64, y: f64) -> (String, [f64; 4]) {
    let mut d = String::new();
    match shape {
        Shape::Square { size } => {
            let h = size / 2.0;
            let _ = write!(d, "M{:.3},{:.3}h{:.3}v{:.3}h{:.3}Z", x - h, y - h, size, size, -size);
            (d, [x - h, y - h, x + h, y + h])
        }
        Shape::Hex { size } => {
            let r = size / 3f64.sqrt();
            let mut bb = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
            for i in 0..6 {
                let a = std::f64::consts::PI / 180.0 * (60.0 * i as f64 - 90.0);
                let (px, py) = (x + r * a.cos(), y + r * a.sin());
                let _ = write!(d, "{}{:.3},{:.3}", if i == 0 { 'M' } else { 'L' }, px, py);
                bb = [bb[0].min(px), bb[1].min(py), bb[2].max(px), bb[3].max(py)];
            }
            d.push('Z');
            (d, bb)
        }
        Shape::Ring { sectors } => {
            let r = (x * x + y * y).sqrt();
            let a = y.atan2(x);
            let half = std::f64::consts::PI / sectors as f64;
            let (r0, r1) = (r - 0.5, r + 0.5);
            let p = |rr: f64, aa: f64| (rr * aa.cos(), rr * aa.sin());
            let (a0, a1) = (a - half, a + half);
            let (x0, y0) = p(r1, a0);
            let (x1, y1) = p(r1, a1);
            let (x2, y2) = p(r0, a1);
            let (x3, y3) = p(r0, a0);
            let _ = write!(
                d,
                "M{x0:.3},{y0:.3}A{r1:.3},{r1:.3} 0 0 1 {x1:.3},{y1:.3}L{x2:.3},{y2:.3}A{r0:.3},{r0:.3} 0 0 0 {x3:.3},{y3:.3}Z"
            );
            let xs = [x0, x1, x2, x3, x + 0.5, x - 0.5];
            let ys = [y0, y1, y2, y3, y + 0.5, y - 0.5];
            let min = |v: &[f64]| v.iter().cloned().fold(f64::MAX, f64::min);
            let max = |v: &[f64]| v.iter().cloned().fold(f64::MIN, f64::max);
            (d, [min(&xs), min(&ys), max(&xs), max(&ys)])
        }
    }
}

/// Where a cell is, and its centre as a circle's attributes
/// (`cx="…" cy="…"`), written once.
struct Spot {
    x: f64,
    y: f64,
    xy: String,
}

/// What a board's pictures share, worked out once per game and variant
/// (issue #25: drawn every call, the cells' outlines and names and the
/// names' table were most of a RenderBoard): where each cell is, the
/// cells' shape and size, the board's extent, and the cells and their
/// names drawn in each theme.
pub struct Board {
    at: HashMap<String, Spot>,
    shape: Shape,
    unit: f64,
    /// The pieces' group's opening tag, a piece's radius and a king's
    /// crown's, as drawn.
    pieces_open: String,
    piece_r: String,
    crown_r: String,
    /// The cells' extent: min x, min y, max x, max y.
    bb: [f64; 4],
    /// The cells' group, in the light and the dark theme.
    cells: [String; 2],
    /// The cell names' group, in the light and the dark theme.
    names: [String; 2],
}

impl Board {
    /// The board of `desc`.
    pub fn new(desc: &pb::GameDescription) -> Board {
        let cells = desc.board.as_ref().map(|b| b.cells.as_slice()).unwrap_or(&[]);
        let at: HashMap<&str, (f64, f64)> = cells.iter().map(|c| (c.name.as_str(), (c.x, c.y))).collect();
        let shape = shape(cells, &at);
        let unit = match shape {
            Shape::Square { size } | Shape::Hex { size } => size,
            Shape::Ring { .. } => 1.0,
        };
        // Each cell's outline, the same in both themes, and the cells' extent.
        let mut bb = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
        let outlines: Vec<String> = cells
            .iter()
            .map(|c| {
                let (d, b) = outline(shape, c.x, c.y);
                bb = [bb[0].min(b[0]), bb[1].min(b[1]), bb[2].max(b[2]), bb[3].max(b[3])];
                d
            })
            .collect();
        let drawn = |theme: &Theme| {
            let mut g = String::new();
            let _ = write!(g, r#"<g class="cells" stroke="{}" stroke-width="{:.3}">"#, theme.line, unit * 0.03);
            for (c, d) in cells.iter().zip(&outlines) {
                let _ = write!(
                    g,
                    r#"<path class="cell" data-cell="{}" d="{}" fill="{}"/>"#,
                    esc(&c.name),
                    d,
                    cell_fill(&c.tags, theme)
                );
            }
            g.push_str("</g>");
            g
        };
        let named = |theme: &Theme| {
            let mut g = String::new();
            let _ = write!(
                g,
                r#"<g class="names" fill="{}" font-family="sans-serif" font-size="{:.3}" text-anchor="middle" pointer-events="none">"#,
                theme.text,
                unit * 0.28
            );
            for c in cells {
                let _ = write!(g, r#"<text x="{:.3}" y="{:.3}">{}</text>"#, c.x, c.y + unit * 0.42, esc(&c.name));
            }
            g.push_str("</g>");
            g
        };
        let radius = unit * 0.36;
        let spot = |(x, y): (f64, f64)| Spot { x, y, xy: format!(r#"cx="{x:.3}" cy="{y:.3}""#) };
        Board {
            at: at.into_iter().map(|(k, v)| (k.to_string(), spot(v))).collect(),
            shape,
            unit,
            pieces_open: format!(r#"<g class="pieces" stroke-width="{:.3}">"#, unit * 0.05),
            piece_r: format!("{radius:.3}"),
            crown_r: format!("{:.3}", radius * 0.55),
            bb,
            cells: [drawn(&LIGHT), drawn(&DARK)],
            names: [named(&LIGHT), named(&DARK)],
        }
    }
}

/// Draws `state` on the board of `desc`. Errors name the request field.
pub fn render(desc: &pb::GameDescription, state: &pb::GameState, opts: &Options) -> Result<Picture, (String, String)> {
    let pieces = state.pieces.iter().map(|p| Piece { cell: &p.cell, owner: &p.owner, kind: &p.kind });
    render_on(desc, &Board::new(desc), &state.to_move, pieces, opts)
}

/// A piece as a picture shows it: its cell's name, its owner as the
/// position names it (`GameState.pieces`' `owner`) and its kind.
#[derive(Clone, Copy, Debug)]
pub struct Piece<'a> {
    pub cell: &'a str,
    pub owner: &'a str,
    pub kind: &'a str,
}

/// [`render`] on the board of `desc` worked out before ([`Board::new`]),
/// of a state given by who is to move and its pieces (the lean path draws
/// from the engine's view, with no `pb` state).
pub fn render_on<'a>(
    desc: &pb::GameDescription,
    board: &Board,
    to_move: &str,
    pieces: impl ExactSizeIterator<Item = Piece<'a>>,
    opts: &Options,
) -> Result<Picture, (String, String)> {
    let theme = if opts.dark { &DARK } else { &LIGHT };
    let at = &board.at;
    let spot = |field: &str, name: &str| {
        at.get(name).ok_or_else(|| (field.to_string(), format!("no cell named `{name}` on this board")))
    };
    let find = |field: &str, name: &str| spot(field, name).map(|s| (s.x, s.y));
    for h in &opts.highlight {
        find("highlight", h)?;
    }
    let (shape, unit) = (board.shape, board.unit);

    // The picture's frame first (the board's extent is the cells'), then
    // each part written after it, into the one buffer.
    let mut bb = board.bb;
    if bb[0] > bb[2] {
        bb = [0.0, 0.0, 1.0, 1.0];
    }
    let pad = unit * 0.3;
    let (vx, vy, vw, vh) = (bb[0] - pad, bb[1] - pad, bb[2] - bb[0] + 2.0 * pad, bb[3] - bb[1] + 2.0 * pad);
    let width = opts.width;
    let height = ((width as f64) * vh / vw).round().max(1.0) as u32;
    let mut body = String::with_capacity(board.cells[0].len() + 2048 + 192 * pieces.len());
    let _ = write!(
        body,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="{vx:.3} {vy:.3} {vw:.3} {vh:.3}" data-game="{}" data-variant="{}">"#,
        esc(&desc.game),
        esc(&desc.variant)
    );
    let _ = write!(body, r#"<title>{} ({}), {} to move</title>"#, esc(&desc.name), esc(&desc.variant), esc(to_move));
    let _ = write!(
        body,
        r#"<defs><marker id="arrow" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0,0L10,5L0,10Z" fill="{}"/></marker></defs>"#,
        theme.arrow
    );
    let _ =
        write!(body, r#"<rect x="{vx:.3}" y="{vy:.3}" width="{vw:.3}" height="{vh:.3}" fill="{}"/>"#, theme.background);
    // Cells.
    body.push_str(&board.cells[usize::from(opts.dark)]);
    // Highlights.
    if !opts.highlight.is_empty() {
        let _ = write!(body, r#"<g class="highlights" fill="{}" fill-opacity="0.45" stroke="none">"#, theme.highlight);
        for h in &opts.highlight {
            let (x, y) = find("highlight", h)?;
            let (d, _) = outline(shape, x, y);
            let _ = write!(body, r#"<path class="highlight" data-cell="{}" d="{}"/>"#, esc(h), d);
        }
        body.push_str("</g>");
    }
    // Cell names.
    if opts.cell_names {
        body.push_str(&board.names[usize::from(opts.dark)]);
    }
    // Pieces: each cell's centre and the radii as written once (no number
    // formatted a piece), the names escaped in place.
    let seats: Vec<&str> = desc.players.iter().map(|p| p.name.as_str()).collect();
    let radius = unit * 0.36;
    body.push_str(&board.pieces_open);
    for p in pieces {
        let at = spot("state.pieces", p.cell)?;
        let (fill, stroke) = piece_colours(p.owner, seats.iter().position(|s| *s == p.owner));
        for (text, name) in
            [(r#"<g class="piece" data-cell=""#, p.cell), (r#"" data-owner=""#, p.owner), (r#"" data-kind=""#, p.kind)]
        {
            body.push_str(text);
            esc_into(&mut body, name);
        }
        for part in
            [r#""><circle "#, &at.xy, r#" r=""#, &board.piece_r, r#"" fill=""#, fill, r#"" stroke=""#, stroke, r#""/>"#]
        {
            body.push_str(part);
        }
        if p.kind == "king" {
            // A crown: a smaller ring inside the piece.
            for part in ["<circle ", &at.xy, r#" r=""#, &board.crown_r, r#"" fill="none" stroke=""#, stroke, r#""/>"#] {
                body.push_str(part);
            }
        }
        body.push_str("</g>");
    }
    body.push_str("</g>");
    // The last move: its path, and its captures crossed out.
    if let Some(m) = &opts.last_move {
        let mut path: Vec<&str> = m.path.iter().map(String::as_str).collect();
        if path.is_empty() && !m.from_cell.is_empty() && !m.to_cell.is_empty() {
            path = vec![m.from_cell.as_str(), m.to_cell.as_str()];
        }
        let mut points = Vec::new();
        for c in &path {
            points.push(find("last_move.path", c)?);
        }
        let w = unit * 0.08;
        if points.len() >= 2 {
            let pts: Vec<String> = points.iter().map(|(x, y)| format!("{x:.3},{y:.3}")).collect();
            let _ = write!(
                body,
                r#"<g class="last-move" pointer-events="none"><polyline points="{}" fill="none" stroke="{}" stroke-width="{w:.3}" stroke-linecap="round" stroke-linejoin="round" stroke-opacity="0.85" marker-end="url(#arrow)"/></g>"#,
                pts.join(" "),
                theme.arrow
            );
        } else if let Some(to) = (!m.to_cell.is_empty()).then_some(m.to_cell.as_str()).or(path.first().copied()) {
            let (x, y) = find("last_move.to", to)?;
            let _ = write!(
                body,
                r#"<circle class="last-move" cx="{x:.3}" cy="{y:.3}" r="{:.3}" fill="none" stroke="{}" stroke-width="{w:.3}" pointer-events="none"/>"#,
                radius * 1.15,
                theme.arrow
            );
        }
        let k = radius * 0.8;
        for c in &m.captured {
            let (x, y) = find("last_move.captured", c)?;
            let _ = write!(
                body,
                r#"<path class="captured" data-cell="{}" d="M{:.3},{:.3}L{:.3},{:.3}M{:.3},{:.3}L{:.3},{:.3}" stroke="{}" stroke-width="{w:.3}" stroke-linecap="round" pointer-events="none"/>"#,
                esc(c),
                x - k,
                y - k,
                x + k,
                y + k,
                x - k,
                y + k,
                x + k,
                y - k,
                theme.capture
            );
        }
    }

    body.push_str("</svg>\n");
    Ok(Picture { svg: body, width, height })
}

/// Reads the drawing options of a request; errors name the field.
pub fn options(r: &pb::RenderBoardRequest) -> Result<Options, (String, String)> {
    let dark = match r.theme.as_str() {
        "" | "light" => false,
        "dark" => true,
        other => return Err(("theme".into(), format!("unknown theme `{other}`; use `light` or `dark`"))),
    };
    let width = match r.width {
        0 => DEFAULT_WIDTH,
        w if (16..=MAX_WIDTH).contains(&w) => w,
        w => {
            return Err((
                "width".into(),
                format!("width {w} is out of range: 16 to {MAX_WIDTH} pixels, or 0 for {DEFAULT_WIDTH}"),
            ))
        }
    };
    Ok(Options {
        last_move: r.last_move.clone(),
        highlight: r.highlight.clone(),
        dark,
        width,
        cell_names: r.cell_names,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlour_engine::Registry;

    /// A board worked out once draws every picture as one worked out for
    /// that picture alone: every game, both themes, names or not, a
    /// highlight and a last move, one board for all of them in turn.
    #[test]
    fn a_board_kept_draws_as_a_board_made_for_the_picture() {
        for game in Registry::new().all() {
            let desc = crate::convert::description(game);
            let state = crate::convert::state(game, &game.start());
            let board = Board::new(&desc);
            let cells: Vec<String> = desc.board.as_ref().unwrap().cells.iter().map(|c| c.name.clone()).collect();
            let last_move = pb::Move {
                from_cell: cells[0].clone(),
                to_cell: cells[cells.len() - 1].clone(),
                captured: vec![cells[1].clone()],
                ..Default::default()
            };
            for dark in [false, true] {
                for cell_names in [false, true] {
                    for extras in [false, true] {
                        let opts = Options {
                            dark,
                            cell_names,
                            width: DEFAULT_WIDTH,
                            highlight: if extras { cells[..2].to_vec() } else { vec![] },
                            last_move: extras.then(|| last_move.clone()),
                        };
                        let pieces =
                            state.pieces.iter().map(|p| Piece { cell: &p.cell, owner: &p.owner, kind: &p.kind });
                        let kept = render_on(&desc, &board, &state.to_move, pieces, &opts).unwrap();
                        let fresh = render(&desc, &state, &opts).unwrap();
                        assert_eq!(kept.svg, fresh.svg, "{} {}", desc.game, desc.variant);
                        assert_eq!((kept.width, kept.height), (fresh.width, fresh.height));
                        for p in &state.pieces {
                            assert!(kept.svg.contains(&format!(r#"class="piece" data-cell="{}""#, p.cell)));
                        }
                    }
                }
            }
        }
    }
}
