//! The comparison table, as aligned text or Markdown: one row per workload
//! with both figures, the ratio oriented so that above 1 means A did
//! better, and whether each side's result verified. A result that is wrong,
//! unsupported or failed has no figure and no ratio.

use crate::harness::{Better, Outcome};
use crate::side::Identity;

pub struct Row {
    pub name: String,
    pub what: String,
    pub a: Outcome,
    pub b: Outcome,
}

pub struct Report {
    pub date: String,
    pub a: Identity,
    pub b: Identity,
    pub sizes: String,
    pub rows: Vec<Row>,
    pub notes: Vec<String>,
}

/// A figure with about three significant digits.
pub fn figure(x: f64) -> String {
    let a = x.abs();
    if a >= 100.0 {
        format!("{x:.0}")
    } else if a >= 10.0 {
        format!("{x:.1}")
    } else if a >= 1.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.3}")
    }
}

/// How much better A did than B (above 1: A better), when both measured
/// the same unit.
pub fn ratio(a: &Outcome, b: &Outcome) -> Option<f64> {
    match (a, b) {
        (
            Outcome::Measured {
                value: va,
                unit: ua,
                better,
                ..
            },
            Outcome::Measured {
                value: vb,
                unit: ub,
                ..
            },
        ) if ua == ub && *va > 0.0 && *vb > 0.0 => Some(match better {
            Better::Higher => va / vb,
            Better::Lower => vb / va,
        }),
        _ => None,
    }
}

pub(crate) fn cell(o: &Outcome) -> String {
    match o {
        Outcome::Measured { value, unit, .. } => format!("{} {unit}", figure(*value)),
        Outcome::Wrong(_) => "WRONG".into(),
        Outcome::Unsupported(_) => "unsupported".into(),
        Outcome::Failed(_) => "failed".into(),
    }
}

fn check(o: &Outcome) -> &'static str {
    match o {
        Outcome::Measured { .. } => "ok",
        Outcome::Wrong(_) => "WRONG",
        Outcome::Unsupported(_) => "-",
        Outcome::Failed(_) => "-",
    }
}

pub(crate) fn why(side: &str, o: &Outcome) -> Option<String> {
    match o {
        Outcome::Measured { .. } => None,
        Outcome::Wrong(s) => Some(format!("{side}: WRONG: {s}")),
        Outcome::Unsupported(s) => Some(format!("{side}: unsupported: {s}")),
        Outcome::Failed(s) => Some(format!("{side}: failed: {s}")),
    }
}

const HEADER: [&str; 7] = [
    "workload", "A", "B", "A vs B", "A check", "B check", "notes",
];

impl Report {
    fn cells(&self) -> Vec<Vec<String>> {
        self.rows
            .iter()
            .map(|r| {
                let notes: Vec<String> = [why("A", &r.a), why("B", &r.b)]
                    .into_iter()
                    .flatten()
                    .collect();
                vec![
                    r.name.clone(),
                    cell(&r.a),
                    cell(&r.b),
                    ratio(&r.a, &r.b).map_or("-".into(), |x| format!("{x:.2}x")),
                    check(&r.a).into(),
                    check(&r.b).into(),
                    notes.join("; "),
                ]
            })
            .collect()
    }

    fn table(&self) -> Table<'_> {
        Table {
            preamble: vec![
                format!("clcompare, {}", self.date),
                side_line("A", &self.a),
                side_line("B", &self.b),
                format!("sizes: {}", self.sizes),
                "A vs B: how many times better A did (higher rate or lower time); above 1: A better"
                    .into(),
            ],
            header: &HEADER,
            rows: self.cells(),
            whats: self.rows.iter().map(|r| (&*r.name, &*r.what)).collect(),
            notes: &self.notes,
        }
    }

    pub fn text(&self) -> String {
        self.table().text()
    }

    pub fn markdown(&self) -> String {
        self.table().markdown()
    }
}

/// The preamble line saying what a side ran on.
pub(crate) fn side_line(tag: &str, id: &Identity) -> String {
    format!(
        "{tag}: {} ({}) | device: {} | driver: {} | {}",
        id.platform, id.platform_version, id.device, id.driver, id.device_version
    )
}

/// A report's layout, shared by the one-device and two-device tables: the
/// preamble lines, the table, each row's description, then the notes.
pub(crate) struct Table<'a> {
    pub preamble: Vec<String>,
    pub header: &'a [&'a str],
    pub rows: Vec<Vec<String>>,
    /// Each row's name and what it measures.
    pub whats: Vec<(&'a str, &'a str)>,
    pub notes: &'a [String],
}

impl Table<'_> {
    /// Aligned columns, the last one unpadded.
    pub fn text(&self) -> String {
        let mut out = self.preamble.join("\n");
        out.push_str("\n\n");
        let mut widths: Vec<usize> = self.header.iter().map(|h| h.len()).collect();
        for r in &self.rows {
            for (w, c) in widths.iter_mut().zip(r) {
                *w = (*w).max(c.chars().count());
            }
        }
        let line = |cells: &[String]| {
            let mut s = String::new();
            for (i, (c, w)) in cells.iter().zip(&widths).enumerate() {
                if i == cells.len() - 1 {
                    s.push_str(c);
                } else {
                    s.push_str(&format!("{c:<w$}  "));
                }
            }
            s.trim_end().to_string() + "\n"
        };
        let header: Vec<String> = self.header.iter().map(|h| h.to_string()).collect();
        out.push_str(&line(&header));
        for r in &self.rows {
            out.push_str(&line(r));
        }
        out.push('\n');
        let name_width = self.whats.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
        for (name, what) in &self.whats {
            out.push_str(&format!("{name:<name_width$}  {what}\n"));
        }
        for n in self.notes {
            out.push_str(&format!("note: {n}\n"));
        }
        out
    }

    pub fn markdown(&self) -> String {
        let mut out: String = self
            .preamble
            .iter()
            .map(|l| format!("{}  \n", l.replace('|', "\\|")))
            .collect();
        out.push('\n');
        out.push_str(&format!("| {} |\n", self.header.join(" | ")));
        out.push_str(&format!("|{}\n", " --- |".repeat(self.header.len())));
        for r in &self.rows {
            let escaped: Vec<String> = r.iter().map(|c| c.replace('|', "\\|")).collect();
            out.push_str(&format!("| {} |\n", escaped.join(" | ")));
        }
        out.push('\n');
        for (name, what) in &self.whats {
            out.push_str(&format!("- `{name}`: {what}\n"));
        }
        for n in self.notes {
            out.push_str(&format!("- note: {n}\n"));
        }
        out
    }
}

/// `seconds` since the Unix epoch as a UTC date and time.
pub fn utc(seconds: u64) -> String {
    // Days to civil date (Howard Hinnant's algorithm).
    let days = (seconds / 86_400) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let secs = seconds % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        secs / 3600,
        secs % 3600 / 60
    )
}

pub fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    utc(secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(value: f64, better: Better) -> Outcome {
        Outcome::Measured {
            value,
            unit: "x",
            better,
            runs: 1,
        }
    }

    #[test]
    fn ratio_is_oriented_so_above_one_means_a_better() {
        let r = ratio(
            &measured(20.0, Better::Higher),
            &measured(10.0, Better::Higher),
        );
        assert_eq!(r, Some(2.0));
        let r = ratio(
            &measured(20.0, Better::Lower),
            &measured(10.0, Better::Lower),
        );
        assert_eq!(r, Some(0.5));
        let wrong = Outcome::Wrong("x".into());
        assert_eq!(ratio(&wrong, &measured(1.0, Better::Higher)), None);
    }

    #[test]
    fn dates_are_civil_utc() {
        assert_eq!(utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc(951_782_400 + 3_660), "2000-02-29 01:01 UTC");
        assert_eq!(utc(1_700_000_000), "2023-11-14 22:13 UTC");
    }

    #[test]
    fn figures_keep_three_digits() {
        assert_eq!(figure(1234.4), "1234");
        assert_eq!(figure(12.345), "12.3");
        assert_eq!(figure(1.2345), "1.23");
        assert_eq!(figure(0.012345), "0.012");
    }
}
