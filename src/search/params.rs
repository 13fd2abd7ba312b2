//! Every number the search decides by, in one table, and the score scale it decides on.
//!
//! A leaf module: it imports nothing from the engine, so the transposition table, the
//! evaluation's users and the UCI options can all read it without import circles.
//!
//! The table is written once, in `search_params!` below: each line names a parameter, its
//! default and the range a tuner may move it in. From that one list the macro makes the
//! `SearchParams` struct, its `DEFAULT` value and the `TABLE` of names and ranges. A diff that
//! changes a margin touches one line here.
//!
//! In the normal build the search reads `SearchParams::DEFAULT` (constants the compiler folds
//! into the code). Built with the cargo feature `spsa`, each parameter is also a UCI spin option
//! (its name as written here) and the search reads the values the options set, so a tuner
//! (SPSA through a match runner) can reach every number; the normal build shows none of them.

/// Mate scores are `MATE - ply`; anything beyond `MATE_BOUND` is a mate score.
pub const MATE: i32 = 32000;
pub const MATE_BOUND: i32 = MATE - 1000;
/// The deepest ply the search reaches; the stacks are sized by it.
pub const MAX_PLY: usize = 128;
/// Above any reachable score.
pub const INFINITE: i32 = MATE + 1;
/// Stack marker: no static evaluation (in check).
pub const NO_EVAL: i32 = -INFINITE;
/// Score of a drawn position.
pub const DRAW: i32 = 0;
/// An endgame-table win at the root; `TB_WIN - ply` at a node. Below every mate score (a
/// mate the search sees is better) and above every evaluation.
pub const TB_WIN: i32 = MATE_BOUND - 1 - MAX_PLY as i32;
/// Anything beyond this (and below `MATE_BOUND`) is a table win.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// One tunable parameter as the UCI options and a tuner see it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
}

/// Declares the parameter table: `name: default, min, max;` per line, each with its doc.
macro_rules! search_params {
    ($( $(#[doc = $doc:literal])* $name:ident : $default:expr, $min:expr, $max:expr; )*) => {
        /// The search's margins, depths and divisors (see the module doc).
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $( $(#[doc = $doc])* pub $name: i32, )*
        }

        impl SearchParams {
            pub const DEFAULT: SearchParams = SearchParams { $( $name: $default, )* };

            /// Every parameter with its default and range, in table order.
            pub const TABLE: &'static [ParamSpec] = &[
                $( ParamSpec { name: stringify!($name), default: $default, min: $min, max: $max }, )*
            ];

            /// The value of the parameter called `name`.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $( stringify!($name) => Some(self.$name), )*
                    _ => None,
                }
            }

            /// Sets the parameter called `name`; false (and nothing changed) for an unknown
            /// name or a value outside its range.
            pub fn set(&mut self, name: &str, value: i32) -> bool {
                let Some(spec) = Self::TABLE.iter().find(|spec| spec.name == name) else {
                    return false;
                };
                if !(spec.min..=spec.max).contains(&value) {
                    return false;
                }
                match name {
                    $( stringify!($name) => self.$name = value, )*
                    _ => return false,
                }
                true
            }
        }
    };
}

search_params! {
    // -- Iterative deepening: aspiration windows
    /// First depth searched inside a window around the previous score.
    aspiration_min_depth: 4, 1, 10;
    /// Half-width of the first window, in centipawns ...
    aspiration_delta: 15, 5, 60;
    /// ... plus |score| divided by this (wider windows for lopsided scores).
    aspiration_score_divisor: 64, 16, 512;
    /// After a fail the window grows by half its width plus this.
    aspiration_widening: 5, 0, 50;

    // -- Late-move reductions (step 12): table entry = base + ln(depth) ln(move number) / divisor
    /// `lmr_base / 100` plies.
    lmr_base: 75, 0, 200;
    /// The divisor, in hundredths.
    lmr_divisor: 225, 100, 500;
    /// Shallowest depth that reduces.
    lmr_min_depth: 3, 1, 8;
    /// A quiet move's history score reduces one ply less per this much.
    lmr_history_divisor: 8192, 1024, 32768;
    /// A reduced move that beats the best score by this + 2 · depth is re-searched a ply
    /// deeper ...
    lmr_deeper_margin: 40, 0, 200;
    /// ... and one that beats it by less than this a ply shallower.
    lmr_shallower_margin: 8, 0, 50;
    /// Root rule: moves searched (0-based) before the root reduces at all.
    root_lmr_min_moves: 3, 1, 10;

    // -- Reverse futility pruning (step 6)
    rfp_max_depth: 8, 1, 16;
    /// Margin per ply of depth (one ply less when improving).
    rfp_margin: 80, 20, 200;

    // -- Null-move pruning (step 7): reduction = base + depth / divisor + min((eval - beta) / eval_divisor, eval_cap)
    nmp_min_depth: 3, 1, 8;
    nmp_base: 3, 1, 6;
    nmp_depth_divisor: 4, 1, 12;
    nmp_eval_divisor: 200, 50, 800;
    nmp_eval_cap: 3, 0, 6;

    // -- Internal iterative reduction (step 8)
    iir_min_depth: 4, 2, 10;

    // -- Late-move pruning (step 10a): quiets tried before the rest are cut = base + depth²
    //    (halved when not improving)
    lmp_max_depth: 8, 1, 16;
    lmp_base: 3, 0, 10;

    // -- Futility pruning (step 10b): eval + base + per_depth · lmr_depth <= alpha, where
    //    lmr_depth is the depth the quiet move would get after its late-move reduction
    futility_max_depth: 8, 1, 16;
    futility_base: 100, 0, 300;
    futility_per_depth: 100, 20, 300;

    // -- History pruning (step 10c): quiets with history below -margin · depth are skipped
    history_prune_max_depth: 4, 1, 8;
    history_prune_margin: 2048, 256, 8192;

    // -- Static-exchange pruning (steps 10d, 10e)
    see_max_depth: 6, 1, 12;
    /// Quiet moves may lose at most this · lmr_depth² centipawns by exchange (lmr_depth as in
    /// step 10b, which `see_max_depth` also limits for quiets).
    see_quiet_margin: 25, 0, 100;
    /// Captures may lose at most this · depth.
    see_capture_margin: 90, 0, 300;

    // -- Singular extensions (step 11a)
    singular_min_depth: 8, 4, 14;
    /// The table entry may be this much shallower than the node.
    singular_tt_depth_margin: 3, 0, 6;
    /// Singular beta = table score - this · depth.
    singular_beta_margin: 2, 1, 8;
    /// Outside PV nodes, a table move singular by this much more gets two plies ...
    double_extension_margin: 20, 0, 100;
    /// ... while the line has had fewer double extensions than this.
    double_extension_max: 6, 0, 16;

    // -- History bonus: min(quadratic · depth² + linear · depth, max)
    history_bonus_quadratic: 16, 0, 64;
    history_bonus_linear: 32, 0, 256;
    history_bonus_max: 1600, 200, 4000;
    /// A fail low rewards the opponent's quiet move before it by the bonus · this / 64.
    prior_move_bonus: 64, 0, 256;

    // -- Correction history (step 16)
    /// The largest correction, in centipawns.
    correction_limit: 32, 8, 128;
    /// An update's weight is min(depth + 1, this) out of 256.
    correction_max_weight: 16, 2, 64;

    // -- Evaluation-difference history (step 5b)
    /// The opponent's last quiet move gains this times minus the sum of the two static
    /// evaluations (its side's loss) in the butterfly history...
    eval_history_mult: 8, 0, 32;
    /// ... at most this much either way.
    eval_history_max: 1200, 0, 4096;

    // -- Quiescence search
    /// Delta pruning: what a capture may bring beyond its victim's value.
    qsearch_delta_margin: 150, 0, 500;
}

impl SearchParams {
    /// The history bonus (or malus) for a cutoff at `depth`.
    #[inline(always)]
    pub fn history_bonus(&self, depth: i32) -> i32 {
        (depth * depth * self.history_bonus_quadratic + depth * self.history_bonus_linear)
            .min(self.history_bonus_max)
    }

    /// The late-move reduction table these parameters give, by depth and move number (both
    /// capped at 63).
    pub fn reduction_table(&self) -> [[i32; 64]; 64] {
        let base = f64::from(self.lmr_base) / 100.0;
        let divisor = f64::from(self.lmr_divisor) / 100.0;
        let mut table = [[0; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (number, cell) in row.iter_mut().enumerate().skip(1) {
                *cell = (base + (depth as f64).ln() * (number as f64).ln() / divisor) as i32;
            }
        }
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_lists_every_field_with_its_default_inside_its_range() {
        assert!(SearchParams::TABLE.len() >= 30);
        for spec in SearchParams::TABLE {
            assert!(
                spec.min <= spec.default && spec.default <= spec.max,
                "{spec:?}"
            );
            assert_eq!(SearchParams::DEFAULT.get(spec.name), Some(spec.default));
        }
        let mut names: Vec<&str> = SearchParams::TABLE.iter().map(|spec| spec.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), SearchParams::TABLE.len(), "names are unique");
    }

    #[test]
    fn set_keeps_values_in_range_and_names_known() {
        let mut params = SearchParams::DEFAULT;
        assert!(params.set("rfp_margin", 120));
        assert_eq!(params.rfp_margin, 120);
        assert!(!params.set("rfp_margin", 10_000));
        assert!(!params.set("no_such_parameter", 1));
        assert_eq!(params.rfp_margin, 120);
        assert_eq!(params.get("rfp_margin"), Some(120));
    }

    #[test]
    fn bonus_and_reductions_follow_their_formulas() {
        // Explicit values (the defaults), so that a tuning run's `--apply` leaves this test as is.
        let params = SearchParams {
            history_bonus_quadratic: 16,
            history_bonus_linear: 32,
            history_bonus_max: 1600,
            lmr_base: 75,
            lmr_divisor: 225,
            ..SearchParams::DEFAULT
        };
        assert_eq!(params.history_bonus(1), 48);
        assert_eq!(params.history_bonus(5), 560);
        assert_eq!(params.history_bonus(20), 1600);
        let table = params.reduction_table();
        assert_eq!(table[0][10], 0);
        assert_eq!(table[1][1], 0);
        assert_eq!(
            table[10][10],
            (0.75 + 10f64.ln() * 10f64.ln() / 2.25) as i32
        );
        assert_eq!(
            table[63][63],
            (0.75 + 63f64.ln() * 63f64.ln() / 2.25) as i32
        );
    }
}
