//! What the account paths cost the database at 10,000, 100,000 and a million users, on SQLite and
//! on PostgreSQL (`make bench-scale`; every bench: benches/README.md). Each size is seeded onto the
//! last (three sessions a user, a revoked binding and a not-before time; `db::seed`), then each
//! operation is timed on users added by that size (`db::scale`). Prints a Markdown table and, with
//! `--write FILE`, puts it in FILE between the `scale:begin` and `scale:end` markers
//! (docs/performance.md, "Costs at scale").
//!
//! `scale [--write FILE] [--samples N] [USERS ...]`; PostgreSQL is measured when
//! `MG_TEST_POSTGRES_URL` names a server (a database is made on it and dropped after).

use std::fmt::Write as _;

use anyhow::Context as _;
use mg_platform::db::{
    scale::{measure, Cost, OPERATIONS},
    testing::{drop_test_postgres, test_postgres},
    Database,
};

/// The sizes measured when none are given.
const SIZES: [i64; 3] = [10_000, 100_000, 1_000_000];

/// Users seeded a statement (a million rows of one `INSERT ... SELECT` hold SQLite's memory for
/// the statement's whole undo log).
const SEED_STEP: i64 = 100_000;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let (mut write, mut samples, mut sizes) = (None, 200, Vec::new());
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--write" => write = Some(args.next().context("--write needs a file")?),
            "--samples" => samples = args.next().context("--samples needs N")?.parse()?,
            size => sizes.push(
                size.parse::<i64>()
                    .with_context(|| format!("not a size: {size}"))?,
            ),
        }
    }
    if sizes.is_empty() {
        sizes = SIZES.to_vec();
    }
    sizes.sort_unstable();
    let dir = tempfile::tempdir()?;
    let sqlite = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("scale.db").display()
    );
    let mut results = vec![("SQLite", run(&sqlite, &sizes, samples).await?)];
    if let Some(url) = test_postgres().await {
        let measured = run(&url, &sizes, samples).await;
        drop_test_postgres(&url).await;
        results.push(("PostgreSQL", measured?));
    }
    let table = table(&sizes, &results, samples);
    print!("{table}");
    if let Some(file) = write {
        let text = std::fs::read_to_string(&file)?;
        let (begin, end) = ("<!-- scale:begin -->\n", "<!-- scale:end -->");
        let (Some(from), Some(to)) = (text.find(begin), text.find(end)) else {
            anyhow::bail!("{file} has no {begin:?} ... {end:?} markers");
        };
        let updated = format!("{}{begin}{table}{}", &text[..from], &text[to..]);
        std::fs::write(&file, updated)?;
        eprintln!("wrote the table into {file}");
    }
    Ok(())
}

/// Seeds `url`'s database up to each of `sizes` in turn and measures at each.
async fn run(url: &str, sizes: &[i64], samples: i64) -> anyhow::Result<Vec<Vec<Cost>>> {
    let db = Database::connect(url, None).await?;
    let mut seeded = 0;
    let mut measured = Vec::new();
    for &size in sizes {
        let started = std::time::Instant::now();
        while seeded < size {
            let to = (seeded + SEED_STEP).min(size);
            db.seed_users(seeded + 1, to).await?;
            seeded = to;
        }
        eprintln!(
            "{:?}: {size} users seeded in {:.1?}",
            db.backend(),
            started.elapsed()
        );
        let first = sizes
            .iter()
            .copied()
            .filter(|&s| s < size)
            .max()
            .unwrap_or(0)
            + 1;
        measured.push(measure(&db, first..=size, samples).await?);
    }
    db.pool().close().await;
    Ok(measured)
}

/// One row per engine and operation: p50 and p99 at each size, in milliseconds.
fn table(sizes: &[i64], results: &[(&str, Vec<Vec<Cost>>)], samples: i64) -> String {
    let build = if cfg!(debug_assertions) {
        "a debug build"
    } else {
        "the release build"
    };
    let mut out = format!(
        "Measured by `scale` ({build}), {samples} calls per operation and size; milliseconds.\n\n\
         | Engine | Operation |"
    );
    for size in sizes {
        let _ = write!(out, " {size} users: p50 / p99 |");
    }
    out.push_str("\n|---|---|");
    out.push_str(&"--:|".repeat(sizes.len()));
    out.push('\n');
    for (engine, by_size) in results {
        for (index, operation) in OPERATIONS.iter().enumerate() {
            let _ = write!(out, "| {engine} | {operation} |");
            for costs in by_size {
                let cost = &costs[index];
                let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
                let _ = write!(out, " {:.3} / {:.3} |", ms(cost.p50), ms(cost.p99));
            }
            out.push('\n');
        }
    }
    out
}
