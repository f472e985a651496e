//! The `--devices 2` table: for each workload and side, the two-device
//! figure, the figure of the same work on device 0 of that same context
//! alone, and the scaling (two / one); then how many times better A's
//! two-device figure is than B's, and whether each side's results
//! verified. A side whose platform has no two devices shows no figures,
//! and the preamble says why.

use crate::harness::Outcome;
use crate::report::{cell, ratio, side_line, why, Table};
use crate::side::Identity;
use crate::workloads::two_devices::Figures;

pub struct PairRow {
    pub name: String,
    pub what: String,
    /// `None`: the side has no pair of devices.
    pub a: Option<Figures>,
    pub b: Option<Figures>,
}

pub struct PairReport {
    pub date: String,
    /// What each side ran on, or why it could not run.
    pub a: Result<Identity, String>,
    pub b: Result<Identity, String>,
    pub sizes: String,
    pub rows: Vec<PairRow>,
    pub notes: Vec<String>,
}

const HEADER: [&str; 11] = [
    "workload",
    "A 2 devices",
    "A 1 device",
    "A 2/1",
    "B 2 devices",
    "B 1 device",
    "B 2/1",
    "A vs B",
    "A check",
    "B check",
    "notes",
];

/// How many times better two devices did than one.
pub fn scaling(figures: &Figures) -> Option<f64> {
    ratio(&figures.two, figures.one.as_ref()?)
}

fn times(x: Option<f64>) -> String {
    x.map_or("-".into(), |x| format!("{x:.2}x"))
}

fn outcomes(figures: &Figures) -> impl Iterator<Item = &Outcome> {
    std::iter::once(&figures.two).chain(&figures.one)
}

/// The side's figure cells: two devices, one device, scaling.
fn side_cells(figures: Option<&Figures>) -> [String; 3] {
    match figures {
        Some(f) => [
            cell(&f.two),
            f.one.as_ref().map_or("-".into(), cell),
            times(scaling(f)),
        ],
        None => ["-".into(), "-".into(), "-".into()],
    }
}

/// `WRONG` when any of the side's results was, `ok` when all measured.
fn side_check(figures: Option<&Figures>) -> &'static str {
    let Some(f) = figures else { return "-" };
    if outcomes(f).any(|o| matches!(o, Outcome::Wrong(_))) {
        "WRONG"
    } else if outcomes(f).all(|o| matches!(o, Outcome::Measured { .. })) {
        "ok"
    } else {
        "-"
    }
}

fn side_notes(tag: &str, figures: Option<&Figures>) -> Vec<String> {
    let Some(f) = figures else { return Vec::new() };
    [
        why(&format!("{tag} 2 devices"), &f.two),
        f.one
            .as_ref()
            .and_then(|o| why(&format!("{tag} 1 device"), o)),
    ]
    .into_iter()
    .flatten()
    .collect()
}

fn identity_line(tag: &str, side: &Result<Identity, String>) -> String {
    match side {
        Ok(id) => side_line(tag, id),
        Err(why) => format!("{tag}: {why}"),
    }
}

impl PairReport {
    fn cells(&self) -> Vec<Vec<String>> {
        self.rows
            .iter()
            .map(|r| {
                let (a, b) = (r.a.as_ref(), r.b.as_ref());
                let versus = a.zip(b).and_then(|(a, b)| ratio(&a.two, &b.two));
                let mut notes = side_notes("A", a);
                notes.extend(side_notes("B", b));
                let mut row = vec![r.name.clone()];
                row.extend(side_cells(a));
                row.extend(side_cells(b));
                row.extend([
                    times(versus),
                    side_check(a).into(),
                    side_check(b).into(),
                    notes.join("; "),
                ]);
                row
            })
            .collect()
    }

    fn table(&self) -> Table<'_> {
        Table {
            preamble: vec![
                format!("clcompare --devices 2, {}", self.date),
                identity_line("A", &self.a),
                identity_line("B", &self.b),
                format!("sizes: {}", self.sizes),
                "2/1: the two-device figure over the one-device figure of the same work on device 0 of the same context; A vs B: of the two-device figures; above 1: better"
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

    /// Whether no result of either side was wrong.
    pub fn all_correct(&self) -> bool {
        self.rows
            .iter()
            .flat_map(|r| r.a.iter().chain(&r.b))
            .flat_map(outcomes)
            .all(|o| !matches!(o, Outcome::Wrong(_)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::Better;

    fn rate(value: f64) -> Outcome {
        Outcome::Measured {
            value,
            unit: "GB/s",
            better: Better::Higher,
            runs: 1,
        }
    }

    #[test]
    fn rows_show_scaling_and_a_missing_side() {
        let report = PairReport {
            date: "today".into(),
            a: Err("needs two devices: 'X' has 1 device(s)".into()),
            b: Ok(Identity {
                platform: "P".into(),
                platform_version: "1".into(),
                device: "2 x D".into(),
                driver: "d".into(),
                device_version: "v".into(),
            }),
            sizes: "small".into(),
            rows: vec![PairRow {
                name: "stream-split".into(),
                what: "copy".into(),
                a: None,
                b: Some(Figures {
                    two: rate(30.0),
                    one: Some(rate(20.0)),
                }),
            }],
            notes: Vec::new(),
        };
        let cells = report.cells();
        assert_eq!(
            cells[0][1..10],
            [
                "-",
                "-",
                "-",
                "30.0 GB/s",
                "20.0 GB/s",
                "1.50x",
                "-",
                "-",
                "ok"
            ]
        );
        assert!(report.text().contains("A: needs two devices"));
        assert!(report.all_correct());
    }

    #[test]
    fn a_wrong_one_device_result_marks_the_side_wrong() {
        let figures = Figures {
            two: rate(30.0),
            one: Some(Outcome::Wrong("x[0]".into())),
        };
        assert_eq!(side_check(Some(&figures)), "WRONG");
        assert_eq!(scaling(&figures), None);
        assert_eq!(side_cells(Some(&figures))[1], "WRONG");
    }
}
