//! The front end's driver: one source through [`preprocess`], [`parse`]
//! and [`check`] into a [`FrontEnd`] (the checked program, its
//! diagnostics and the files they point into).
//!
//! The parser hands over one external declaration at a time and each is
//! checked at once. For a large source on a machine with more than one
//! core, the stages also overlap: a helper thread preprocesses while the
//! calling thread parses and checks the tokens output so far. The helper
//! lives as long as the process, so its allocator heap and its cached
//! prelude stay warm; while it serves one build, others preprocess on their
//! own threads, as does a build whose job the helper is slow to take. The
//! checked program (which holds `Rc`s) is made and stays on the calling
//! thread.
//!
//! Diagnostics come out in the same order either way: the preprocessor's,
//! then the parser's, then the checker's.

use crate::ast::ExternalDecl;
use crate::caps::DeviceCaps;
use crate::check::UnitChecker;
use crate::diagnostic::{Diagnostics, FileId, SourceMap};
use crate::lexer::{CompactToken, Interner};
use crate::options::BuildOptions;
use crate::parse::{Classifier, Kw, Next, Parser};
use crate::preprocess::{self, PreprocessInput};
use crate::token::{Punct, TokenKind};
use crate::{hir, BuildError};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicU32, AtomicU8, Ordering};
use std::sync::{mpsc, Arc, Mutex, TryLockError};
use std::time::{Duration, Instant};

/// Sources shorter than this are preprocessed on the calling thread. Handing
/// a job to the helper and waking it took 20-30 us (at times 300 us) in
/// the development VM, and preprocessing takes about 20 us per KB, so
/// small builds (most of them) would gain little and wait on a wake-up.
const OVERLAP_MIN_SOURCE: usize = 16 * 1024;

/// How long the parser spins for the helper's next chunk before it sleeps:
/// a sleeping thread takes tens of microseconds to wake in a VM, and the
/// whole wait is for a build of a few milliseconds.
const SPIN_FOR_CHUNK: Duration = Duration::from_micros(500);

/// How long a build waits for the helper to take its job before it
/// withdraws the job and runs alone. Waking the helper took 20-70 us in the
/// development VM, but at times of contention on its host several
/// milliseconds (a halted virtual core is not run at once), which is
/// longer than preprocessing on the calling thread takes.
const CLAIM_WAIT: Duration = Duration::from_micros(200);

/// The share of an overlapped build the calling thread may spend waiting
/// for the helper before one thread would have been faster: alone, the
/// caller also does the helper's work, about 55% more than its own (9.3M
/// instructions against 6M), so waits above 0.55 / 1.55 of the build lose.
/// In quiet periods the caller waits about 15% of the build.
const MAX_WAIT_SHARE: f64 = 0.35;

/// How many builds run alone once the helper has been too slow lately (or
/// did not take a job in time), before it is tried again.
const ALONE_AFTER_SLOW_HELPER: u32 = 8;

/// Whether the helper has been worth waiting for lately: the share of
/// recent overlapped builds spent waiting for it, averaged so that one
/// slow build (the host taking a core for a moment) does not turn it off.
struct HelperPace {
    /// Builds left to run alone.
    alone_left: AtomicU32,
    /// The average share of a build spent waiting, in thousandths, each
    /// build weighing a quarter.
    wait_share: AtomicU32,
}

impl HelperPace {
    const fn new() -> Self {
        HelperPace {
            alone_left: AtomicU32::new(0),
            wait_share: AtomicU32::new(0),
        }
    }

    /// Whether the next build should run alone (counting it if so).
    fn run_alone(&self) -> bool {
        self.alone_left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
            .is_ok()
    }

    /// Notes an overlapped build that took `took`, `waited` of it waiting
    /// for the helper (freeing checked trees meanwhile, which is at most a
    /// sixteenth of the caller's work, so the share errs a little high).
    fn note(&self, waited: Duration, took: Duration) {
        let share = waited.as_secs_f64() / took.as_secs_f64().max(1e-9);
        self.note_share((share.min(1.0) * 1000.0) as u32);
    }

    /// Notes a build whose job the helper did not take in time.
    fn slow(&self) {
        self.note_share(1000);
    }

    fn note_share(&self, share: u32) {
        let average = (3 * self.wait_share.load(Ordering::Relaxed) + share) / 4;
        self.wait_share.store(average, Ordering::Relaxed);
        if f64::from(average) > MAX_WAIT_SHARE * 1000.0 {
            self.alone_left
                .store(ALONE_AFTER_SLOW_HELPER, Ordering::Relaxed);
        }
    }
}

/// The helper's pace for every build of the process.
static PACE: HelperPace = HelperPace::new();

/// How the helper splits its work.
#[derive(Clone, Copy)]
struct Split {
    /// The main file is lexed this many bytes (to a line end) at a time, so
    /// that the first tokens come out early.
    part_bytes: usize,
    /// The preprocessor offers its output every this many tokens; a chunk
    /// ends at the last declaration boundary in them.
    chunk_tokens: usize,
}

const SPLIT: Split = Split {
    part_bytes: 4096,
    chunk_tokens: 128,
};

/// The result of preprocessing, parsing and checking one source.
pub(crate) struct FrontEnd {
    pub sources: SourceMap,
    pub diags: Diagnostics,
    pub program: hir::Program,
}

impl FrontEnd {
    /// Runs the front end on the calling thread.
    pub fn run(file_name: &str, source: &str, options: &BuildOptions, caps: &DeviceCaps) -> Self {
        Self::run_with_headers(file_name, source, options, caps, &[], |_, _, _| {})
    }

    /// [`FrontEnd::run`] with embedded headers, showing the preprocessed
    /// tokens to `see_tokens` before they are parsed.
    pub fn run_with_headers(
        file_name: &str,
        source: &str,
        options: &BuildOptions,
        caps: &DeviceCaps,
        embedded_headers: &[(&str, &str)],
        see_tokens: impl FnOnce(&[CompactToken], &Interner, &SourceMap),
    ) -> Self {
        let (mut sources, main, mut diags) = start(file_name, source, options);
        let input = PreprocessInput {
            options,
            caps,
            embedded_headers,
        };
        let (tokens, interner) =
            preprocess::preprocess_compact(&mut sources, main, &input, &mut diags);
        see_tokens(&tokens, &interner, &sources);
        let mut parser = Parser::new(diags.with_same_settings());
        parser.add_all_tokens(tokens, interner.into_spellings());
        let (later, program) = parse_and_check(parser, options, caps, None);
        diags.append(later);
        FrontEnd {
            sources,
            diags,
            program,
        }
    }

    /// [`FrontEnd::run`], with preprocessing on the helper thread when the
    /// source is large enough to gain and the helper is free.
    pub fn run_overlapped(
        file_name: &str,
        source: &str,
        options: &BuildOptions,
        caps: &DeviceCaps,
    ) -> Self {
        if source.len() >= OVERLAP_MIN_SOURCE && crate::cores::available() >= 2 && !PACE.run_alone()
        {
            if let Some(front) =
                overlapped(file_name, source, options, caps, SPLIT, CLAIM_WAIT, &PACE)
            {
                return front;
            }
        }
        Self::run(file_name, source, options, caps)
    }

    /// The rendered log, or the build error when there are errors.
    pub fn log(&self) -> Result<String, BuildError> {
        let log = self.diags.render(&self.sources);
        if self.diags.has_errors() {
            Err(BuildError::Compile { log })
        } else {
            Ok(log)
        }
    }
}

/// The source map with `source` as its main file, and an empty diagnostics
/// list.
fn start(
    file_name: &str,
    source: &str,
    options: &BuildOptions,
) -> (SourceMap, FileId, Diagnostics) {
    let mut sources = SourceMap::default();
    let main = sources.add(file_name, source);
    (sources, main, empty_diagnostics(options))
}

/// A diagnostics list with the options' warning settings (`-w`, `-Werror`).
fn empty_diagnostics(options: &BuildOptions) -> Diagnostics {
    let mut diags = Diagnostics::default();
    diags.suppress_warnings = options.suppress_warnings;
    diags.warnings_are_errors = options.warnings_are_errors;
    diags
}

/// What the helper thread is given: one source to preprocess, and where to
/// send its chunks.
struct Job {
    file_name: String,
    source: String,
    options: BuildOptions,
    caps: DeviceCaps,
    split: Split,
    /// The cached prelude whose symbols the build has already (see
    /// [`PRELUDE_SYMBOLS`]).
    known_prelude: Option<u64>,
    chunks: mpsc::Sender<Chunk>,
    claim: Arc<AtomicU8>,
}

/// [`Job::claim`]: the helper has not seen the job yet.
const PENDING: u8 = 0;
/// [`Job::claim`]: the helper is running the job.
const TAKEN: u8 = 1;
/// [`Job::claim`]: the build runs alone; the helper skips the job.
const WITHDRAWN: u8 = 2;

/// Moves a job's claim from [`PENDING`] to `to`; false when the other side
/// moved it first.
fn settle(claim: &AtomicU8, to: u8) -> bool {
    claim
        .compare_exchange(PENDING, to, Ordering::AcqRel, Ordering::Acquire)
        .is_ok()
}

/// The helper thread's job queue, started on first use; `None` before that
/// or after it failed. The lock is held for a whole build, so the helper
/// serves one build at a time.
static HELPER: Mutex<Option<mpsc::Sender<Job>>> = Mutex::new(None);

/// The front end with preprocessing on the helper thread, its work split
/// as `split` says; `None` when the helper is busy, does not take the job
/// within `claim_wait`, or cannot run it, so the caller runs it alone. How
/// long the build waited for the helper goes to `pace`.
fn overlapped(
    file_name: &str,
    source: &str,
    options: &BuildOptions,
    caps: &DeviceCaps,
    split: Split,
    claim_wait: Duration,
    pace: &HelperPace,
) -> Option<FrontEnd> {
    let mut helper = match HELPER.try_lock() {
        Ok(helper) => helper,
        // A build that panicked while it held the helper left nothing half
        // done in it: the job queue is whole.
        Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
        Err(TryLockError::WouldBlock) => return None,
    };
    if helper.is_none() {
        let (jobs, queue) = mpsc::channel();
        std::thread::Builder::new()
            .name("clvulkan-preprocess".into())
            .spawn(move || serve(queue))
            .ok()?;
        *helper = Some(jobs);
    }
    let (chunks, receiver) = mpsc::channel();
    let claim = Arc::new(AtomicU8::new(PENDING));
    let job = Job {
        file_name: file_name.to_owned(),
        source: source.to_owned(),
        options: options.clone(),
        caps: caps.clone(),
        split,
        known_prelude: PRELUDE_SPELLINGS.with(|p| p.borrow().as_ref().map(|(id, _)| *id)),
        chunks,
        claim: claim.clone(),
    };
    if helper.as_ref()?.send(job).is_err() {
        *helper = None;
        return None;
    }
    let start = Instant::now();
    if !taken_within(&claim, claim_wait) {
        pace.slow();
        return None;
    }
    let mut waited = start.elapsed();
    let settings = empty_diagnostics(options);
    let mut ending = None;
    let mut failed = false;
    let mut feed = |parser: &mut Parser, checked: &mut CheckedItems| {
        let asked = Instant::now();
        let chunk = next_chunk(&receiver, checked);
        waited += asked.elapsed();
        match chunk {
            Some(chunk) if mirror_spellings(parser.spellings_mut(), &chunk) => {
                parser.add_tokens(chunk.tokens, chunk.words, chunk.ending.is_some());
                ending = chunk.ending;
            }
            // The helper panicked, or the prelude's symbols were not at hand.
            _ => {
                failed = true;
                parser.add_all_tokens(Vec::new(), Vec::new());
            }
        }
    };
    let mut parser = Parser::new(settings);
    // The preprocessor's estimate of its output (expansion usually grows a
    // kernel's token count).
    parser.reserve(source.len() / 2 + 16);
    let (later, program) = parse_and_check(parser, options, caps, Some(&mut feed));
    drop(helper);
    pace.note(waited, start.elapsed());
    let (sources, mut diags) = ending.filter(|_| !failed)?;
    diags.append(later);
    Some(FrontEnd {
        sources,
        diags,
        program,
    })
}

thread_local! {
    /// The parser's copy of the spellings of the helper's cached prelude
    /// (its number, and the spellings), from this thread's last overlapped
    /// build: making them again cost about 50 us of every build.
    static PRELUDE_SPELLINGS: RefCell<Option<(u64, Vec<Rc<str>>)>> = const { RefCell::new(None) };
}

/// Adds `chunk`'s new spellings to `spellings`, which then spells symbols
/// as the helper's interner does; false when the chunk leaves out the
/// spellings of a prelude this thread does not have.
fn mirror_spellings(spellings: &mut Vec<Rc<str>>, chunk: &Chunk) -> bool {
    let mut new = chunk.spellings();
    match chunk.prelude {
        Some((id, _, true)) => {
            let known = PRELUDE_SPELLINGS.with(|p| match &*p.borrow() {
                Some((known_id, known)) if *known_id == id => Some(known.clone()),
                _ => None,
            });
            match known {
                Some(known) => *spellings = known,
                None => return false,
            }
        }
        Some((id, symbols, false)) => {
            spellings.extend(new.by_ref().take(symbols).map(Rc::from));
            let prelude = (id, spellings.clone());
            PRELUDE_SPELLINGS.with(|p| *p.borrow_mut() = Some(prelude));
        }
        None => {}
    }
    spellings.extend(new.map(Rc::from));
    true
}

/// The next chunk from the helper, spinning a little before sleeping;
/// `None` when the helper dropped the job (it panicked). While it waits it
/// frees the checked declarations' trees, which would otherwise be freed
/// after the last chunk (or on the way to the next). The spin yields, so
/// that a helper waiting for this core gets it.
fn next_chunk(receiver: &mpsc::Receiver<Chunk>, checked: &mut CheckedItems) -> Option<Chunk> {
    let start = Instant::now();
    loop {
        match receiver.try_recv() {
            Ok(chunk) => return Some(chunk),
            Err(mpsc::TryRecvError::Disconnected) => return None,
            Err(mpsc::TryRecvError::Empty) if checked.free_one() => {}
            Err(mpsc::TryRecvError::Empty) if start.elapsed() < SPIN_FOR_CHUNK => {
                std::thread::yield_now();
            }
            Err(mpsc::TryRecvError::Empty) => return receiver.recv().ok(),
        }
    }
}

/// Whether the helper takes the job whose claim this is within `wait`
/// (spinning, yielding, meanwhile); when it has not, the job is withdrawn.
fn taken_within(claim: &AtomicU8, wait: Duration) -> bool {
    let start = Instant::now();
    while claim.load(Ordering::Acquire) == PENDING && start.elapsed() < wait {
        std::thread::yield_now();
    }
    !settle(claim, WITHDRAWN)
}

/// The helper thread: preprocesses each job it takes, sending its output in
/// chunks.
fn serve(jobs: mpsc::Receiver<Job>) {
    for job in jobs {
        if !settle(&job.claim, TAKEN) {
            continue;
        }
        // A panic ends the job, not the helper: the job's sender is
        // dropped, and its build preprocesses again on its own thread (and
        // panics there, as it would have without the helper).
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| preprocess_job(job)));
    }
}

fn preprocess_job(job: Job) {
    let (mut sources, main, mut diags) = start(&job.file_name, &job.source, &job.options);
    let input = PreprocessInput {
        options: &job.options,
        caps: &job.caps,
        embedded_headers: &[],
    };
    let mut chunker = Chunker {
        known_prelude: job.known_prelude,
        ..Chunker::default()
    };
    let (rest, interner) = preprocess::preprocess_streamed(
        &mut sources,
        main,
        &input,
        &mut diags,
        job.split.part_bytes,
        job.split.chunk_tokens,
        &mut |out, interner| chunker.offer(out, interner, &job.chunks),
    );
    let mut last = chunker.chunk(rest, &interner);
    last.ending = Some((sources, diags));
    // Fails only when the build has given up on this job.
    let _ = job.chunks.send(last);
}

/// Declarations that have been checked, whose trees are no longer needed:
/// freeing a tree takes about a sixteenth of the calling thread's work, so
/// while that thread waits for tokens it frees trees instead of spinning.
#[derive(Default)]
struct CheckedItems(Vec<ExternalDecl>);

impl CheckedItems {
    /// Frees one tree; false when none is left.
    fn free_one(&mut self) -> bool {
        self.0.pop().is_some()
    }
}

/// Adds the next chunk of tokens to the parser, freeing checked trees
/// while it waits.
type Feed<'f> = &'f mut dyn FnMut(&mut Parser, &mut CheckedItems);

/// Parses the unit `parser` reads and checks each external declaration as
/// it comes; returns the parser's then the checker's diagnostics, and the
/// program. With `feed`, the parser's tokens come in chunks: `feed` adds
/// the next when the parser needs more, and is given the checked
/// declarations to free while it waits. Without, each tree is freed once
/// it is checked.
fn parse_and_check(
    mut parser: Parser,
    options: &BuildOptions,
    caps: &DeviceCaps,
    mut feed: Option<Feed>,
) -> (Diagnostics, hir::Program) {
    let settings = parser.diagnostics().with_same_settings();
    let mut check_diags = settings.with_same_settings();
    let mut checker = UnitChecker::new(options, caps, &mut check_diags);
    let mut checked = CheckedItems::default();
    loop {
        match parser.next_item() {
            Next::Item(item) => {
                checker.learn_spellings(parser.spellings());
                checker.item(&item);
                if feed.is_some() {
                    checked.0.push(item);
                }
            }
            Next::NeedTokens => match feed.as_mut() {
                Some(feed) => feed(&mut parser, &mut checked),
                // All the tokens are there already; ending the input stops
                // a parser that asks anyway from asking again.
                None => parser.add_tokens(Vec::new(), Vec::new(), true),
            },
            Next::End => break,
        }
    }
    drop(checked);
    if parser.read_past_input() {
        // Malformed input made the parser look past a chunk: what it
        // parsed there may differ from the whole source's parse, so it is
        // done again on all the tokens.
        drop(checker);
        let (tokens, spellings) = parser.into_input();
        let mut again = Parser::new(settings);
        again.add_all_tokens(tokens, spellings);
        return parse_and_check(again, options, caps, None);
    }
    let program = checker.finish();
    let mut diags = parser.into_diagnostics();
    diags.append(check_diags);
    (diags, program)
}

/// Tokens on their way to the parsing thread, with the spellings of the
/// symbols interned since the previous chunk (the receiving interner
/// numbers them alike by interning them in the same order).
struct Chunk {
    tokens: Vec<CompactToken>,
    /// The tokens' keyword classes.
    words: Vec<Kw>,
    /// New spellings, one after another; `spelling_ends` says where each
    /// ends.
    spelling_text: String,
    spelling_ends: Vec<u32>,
    /// With the last chunk: the source map and the preprocessor's
    /// diagnostics.
    ending: Option<(SourceMap, Diagnostics)>,
    /// With the first chunk, when the preprocessor started from a cached
    /// prelude: its number, how many of the symbols are its, and whether
    /// their spellings were left out because the build has them.
    prelude: Option<(u64, usize, bool)>,
}

impl Chunk {
    fn spellings(&self) -> impl Iterator<Item = &str> {
        let mut start = 0;
        self.spelling_ends.iter().map(move |&end| {
            let s = &self.spelling_text[start..end as usize];
            start = end as usize;
            s
        })
    }
}

/// Splits the preprocessor's output into chunks that end at declaration
/// boundaries outside any parentheses, brackets or braces: just after a
/// `;`, or after the `}` of a body that opened just after a `)` (a function
/// definition's). After an unbalanced closing bracket the boundaries are
/// unknown, and the rest goes in the last chunk.
#[derive(Default)]
struct Chunker {
    /// Tokens of the pending output already scanned.
    scanned: usize,
    /// Open brackets at `scanned`.
    depth: u32,
    /// The token before `scanned` was a `)`.
    after_paren: bool,
    /// The outermost open bracket is a brace just after a `)`.
    in_function_body: bool,
    /// Just after the last boundary found in the pending output.
    boundary: usize,
    unbalanced: bool,
    /// Symbols whose spellings have been sent.
    symbols_sent: usize,
    /// See [`Job::known_prelude`].
    known_prelude: Option<u64>,
    classifier: Classifier,
}

impl Chunker {
    /// Sends the pending output up to its last boundary, if there is one.
    fn offer(
        &mut self,
        out: &mut Vec<CompactToken>,
        interner: &Interner,
        to: &mpsc::Sender<Chunk>,
    ) {
        if self.unbalanced {
            return;
        }
        for (i, t) in out.iter().enumerate().skip(self.scanned) {
            let TokenKind::Punct(p) = t.kind else {
                self.after_paren = false;
                continue;
            };
            match p {
                Punct::LBrace if self.depth == 0 => {
                    self.in_function_body = self.after_paren;
                    self.depth = 1;
                }
                Punct::LParen | Punct::LBracket | Punct::LBrace => self.depth += 1,
                Punct::RParen | Punct::RBracket | Punct::RBrace => {
                    let Some(depth) = self.depth.checked_sub(1) else {
                        self.unbalanced = true;
                        return;
                    };
                    self.depth = depth;
                    if depth == 0 && p == Punct::RBrace && self.in_function_body {
                        self.boundary = i + 1;
                    }
                }
                Punct::Semicolon if self.depth == 0 => self.boundary = i + 1,
                _ => {}
            }
            self.after_paren = p == Punct::RParen;
        }
        self.scanned = out.len();
        if self.boundary == 0 {
            return;
        }
        let tokens = out.drain(..self.boundary).collect();
        self.scanned -= self.boundary;
        self.boundary = 0;
        // The worker has panicked when this fails; the scope reports it.
        let _ = to.send(self.chunk(tokens, interner));
    }

    /// A chunk of `tokens`, with the spellings not sent yet.
    fn chunk(&mut self, tokens: Vec<CompactToken>, interner: &Interner) -> Chunk {
        let mut prelude = None;
        if self.symbols_sent == 0 {
            if let Some((id, symbols)) = interner.prelude() {
                let known = self.known_prelude == Some(id);
                prelude = Some((id, symbols, known));
                if known {
                    self.symbols_sent = symbols;
                }
            }
        }
        let mut spelling_text = String::new();
        let mut spelling_ends = Vec::new();
        for sym in self.symbols_sent..interner.len() {
            spelling_text.push_str(interner.get(sym as u32));
            spelling_ends.push(spelling_text.len() as u32);
        }
        self.symbols_sent = interner.len();
        Chunk {
            prelude,
            words: self.classifier.classify(&tokens, interner.spellings()),
            tokens,
            spelling_text,
            spelling_ends,
            ending: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The log and the checked program, for comparing two runs.
    fn outcome(front: &FrontEnd) -> (String, String) {
        (
            front.diags.render(&front.sources),
            format!("{:?}", front.program),
        )
    }

    /// The overlapped front end, waiting while another test holds the
    /// helper.
    fn overlapped_run(source: &str, options: &BuildOptions, split: Split) -> FrontEnd {
        loop {
            if let Some(front) = overlapped(
                crate::MAIN_FILE_NAME,
                source,
                options,
                &DeviceCaps::full(),
                split,
                Duration::from_secs(10),
                &HelperPace::new(),
            ) {
                return front;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Every source gives the same log and program whether it is
    /// preprocessed on the calling thread or on the helper, in chunks as
    /// small as one declaration and with the main file lexed a line at a
    /// time.
    fn assert_overlap_changes_nothing(name: &str, source: &str, options: &str) {
        let options = BuildOptions::parse(options).expect("options");
        let alone = outcome(&FrontEnd::run(
            crate::MAIN_FILE_NAME,
            source,
            &options,
            &DeviceCaps::full(),
        ));
        let splits = [
            SPLIT,
            Split {
                part_bytes: 1,
                chunk_tokens: 1,
            },
            Split {
                part_bytes: 100,
                chunk_tokens: 7,
            },
        ];
        for split in splits {
            let overlapped = outcome(&overlapped_run(source, &options, split));
            assert_eq!(
                alone.0, overlapped.0,
                "{name}: the log differs with parts of {} bytes and chunks of {} tokens",
                split.part_bytes, split.chunk_tokens
            );
            assert!(
                alone.1 == overlapped.1,
                "{name}: the program differs with parts of {} bytes and chunks of {} tokens",
                split.part_bytes,
                split.chunk_tokens
            );
        }
    }

    fn corpus(dir: &str) -> Vec<(String, String)> {
        let dir = format!("{}/../{dir}", env!("CARGO_MANIFEST_DIR"));
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "cl"))
            .collect();
        files.sort();
        files
            .into_iter()
            .map(|p| {
                (
                    p.display().to_string(),
                    std::fs::read_to_string(&p).expect("source"),
                )
            })
            .collect()
    }

    #[test]
    fn valid_kernels_check_alike_overlapped() {
        let mut sources = corpus("tests/frontend/valid");
        sources.extend(corpus("benches/data"));
        assert!(sources.len() > 60);
        for (name, source) in sources {
            assert_overlap_changes_nothing(&name, &source, "");
        }
    }

    #[test]
    fn invalid_kernels_report_alike_overlapped() {
        let sources = corpus("tests/frontend/invalid");
        assert!(sources.len() > 60);
        for (name, source) in sources {
            assert_overlap_changes_nothing(&name, &source, "");
        }
    }

    /// Malformed brackets, where chunk boundaries are not declaration
    /// boundaries, and errors from every stage around them.
    #[test]
    fn malformed_sources_report_alike_overlapped() {
        let sources = [
            "int a; ) int b; void f() { int c = (1; } int d;",
            "void f() { x = 1; } } int a; void g() { a = 2; }",
            "struct S { int a; } int b; struct T { float x; } t = { 1 }, u = { 2 };",
            "void f() { if (1) { } } int g(int x) { return x } int h;",
            "int a = (1, 2; int b; kernel void k(global int *p) { p[0] = a + b; }",
            "#define F(x) x\nint a = F(1\n);\nint b = F(\n2);\n#if 0\nint c;\n#endif\nint d;",
            "typedef int T; T a; void f(void) { T b = a; int T = 1; b = T; } T c;",
            "kernel void k(global float *p) { p[0] = 1.0f; }\n#error stop here\nint x;",
            "/* comment\nover lines */ int a;\\\n int b; // line \\\n continued\nint c;\n\"str\nint d;",
            "int a; {",
            "void f() {",
            "int x = 1;;;; ; } ] ) int y;",
            // A compound literal's `}` after a `)` looks like the end of a
            // function body to the chunker, so a declaration with several
            // runs past the tokens the parser has, after one was checked.
            "int z;\n int a[] = (int[]){1, 2},\n b[] = (int[]){3},\n c[] = (int[]){4};\n int d;",
        ];
        for (i, source) in sources.iter().enumerate() {
            assert_overlap_changes_nothing(&format!("malformed #{i}"), source, "");
        }
    }

    /// Builds with other options use another cached prelude; the symbols
    /// the calling thread kept from one must not stand in for another's.
    #[test]
    fn preludes_of_other_options_are_not_mixed() {
        let source = "#ifdef EXTRA\nint extra;\n#endif\nkernel void k(global int *p) { p[0] = __OPENCL_C_VERSION__; }";
        for options in [
            "",
            "-DEXTRA -cl-std=CL2.0",
            "",
            "-cl-fast-relaxed-math",
            "-DEXTRA -cl-std=CL2.0",
        ] {
            assert_overlap_changes_nothing(options, source, options);
        }
    }

    /// A job the helper has not taken when the build's wait is over is
    /// withdrawn, and the helper then skips it; one it has taken stays
    /// its.
    #[test]
    fn a_job_is_either_taken_or_withdrawn() {
        let claim = AtomicU8::new(PENDING);
        assert!(!taken_within(&claim, Duration::ZERO));
        assert!(!settle(&claim, TAKEN), "the helper must skip it");
        let claim = AtomicU8::new(PENDING);
        assert!(settle(&claim, TAKEN));
        assert!(taken_within(&claim, Duration::ZERO));
    }

    /// Builds that withdraw their jobs (or whose jobs the helper takes at
    /// once) get the one-thread result, and the helper serves the builds
    /// after them.
    #[test]
    fn withdrawn_jobs_change_nothing() {
        let source =
            "int g(int x) { return x * 2; }\nkernel void k(global int *p) { p[0] = g(1); }";
        let options = BuildOptions::default();
        let alone = outcome(&FrontEnd::run(
            crate::MAIN_FILE_NAME,
            source,
            &options,
            &DeviceCaps::full(),
        ));
        for _ in 0..20 {
            let pace = HelperPace::new();
            let caps = DeviceCaps::full();
            let quick = overlapped(
                crate::MAIN_FILE_NAME,
                source,
                &options,
                &caps,
                SPLIT,
                Duration::ZERO,
                &pace,
            );
            if let Some(front) = quick {
                assert_eq!(outcome(&front), alone);
            }
            assert_eq!(outcome(&overlapped_run(source, &options, SPLIT)), alone);
        }
    }

    /// Once recent builds have waited for the helper longer than one thread
    /// would have taken, or its jobs were not taken, the next builds run
    /// alone; then the helper is tried again.
    #[test]
    fn a_slow_helper_is_left_alone_for_a_while() {
        let pace = HelperPace::new();
        let ms = Duration::from_millis;
        pace.note(ms(2), ms(10));
        assert!(!pace.run_alone(), "20% of the build waiting is normal");
        pace.note(ms(8), ms(10));
        assert!(!pace.run_alone(), "one slow build is not enough");
        pace.note(ms(8), ms(10));
        let alone = std::iter::from_fn(|| Some(pace.run_alone()))
            .take(ALONE_AFTER_SLOW_HELPER as usize + 1)
            .collect::<Vec<_>>();
        assert!(alone[..ALONE_AFTER_SLOW_HELPER as usize].iter().all(|&a| a));
        assert!(!alone[ALONE_AFTER_SLOW_HELPER as usize]);
        // Withdrawn jobs count as builds spent waiting.
        let pace = HelperPace::new();
        pace.slow();
        assert!(!pace.run_alone());
        pace.slow();
        assert!(pace.run_alone());
    }

    /// Builds on several threads at once: one gets the helper, the others
    /// preprocess on their own threads, and all get the same result.
    #[test]
    fn concurrent_builds_get_the_same_result() {
        let path = format!(
            "{}/../benches/data/kernels_1000.cl",
            env!("CARGO_MANIFEST_DIR")
        );
        let source = std::fs::read_to_string(&path).expect("kernels_1000.cl");
        assert!(source.len() >= OVERLAP_MIN_SOURCE);
        let options = BuildOptions::default();
        let alone = outcome(&FrontEnd::run(
            crate::MAIN_FILE_NAME,
            &source,
            &options,
            &DeviceCaps::full(),
        ));
        std::thread::scope(|scope| {
            let builds: Vec<_> = (0..4)
                .map(|_| {
                    scope.spawn(|| {
                        (0..5)
                            .map(|_| {
                                let front = FrontEnd::run_overlapped(
                                    crate::MAIN_FILE_NAME,
                                    &source,
                                    &options,
                                    &DeviceCaps::full(),
                                );
                                outcome(&front)
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            for build in builds {
                for result in build.join().expect("build thread") {
                    assert_eq!(result.0, alone.0);
                    assert!(result.1 == alone.1, "the program differs");
                }
            }
        });
    }
}
