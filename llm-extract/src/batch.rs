//! Batch reading on every core (feature `parallel`): many independent replies at once, each
//! result at its input's index.
//!
//! The work runs on rayon's pool: the global one (a thread per core), or the pool whose
//! `install` the call is made from, which is how to choose the number of threads. Each reply
//! is read exactly as the one-reply method reads it; only the scheduling differs.

use crate::coerce::Extract;
use crate::error::Error;
use crate::extracted::Extracted;
use crate::extractor::Extractor;
use rayon::prelude::*;

impl Extractor {
    /// [`Extractor::repair`] for each of `texts`, in parallel; the results are in the order of
    /// `texts`.
    ///
    /// ```
    /// let replies = ["{'a': 1,}", "nothing here", "```json\n[1, 2]\n```"];
    /// let out = llm_extract::Extractor::new().repair_batch(&replies);
    /// assert_eq!(out[0].as_ref().unwrap(), &serde_json::json!({"a": 1}));
    /// assert!(out[1].is_err());
    /// assert_eq!(out[2].as_ref().unwrap(), &serde_json::json!([1, 2]));
    /// ```
    pub fn repair_batch<S: AsRef<str> + Sync>(
        &self,
        texts: &[S],
    ) -> Vec<Result<serde_json::Value, Error>> {
        texts.par_iter().map(|t| self.repair(t.as_ref())).collect()
    }

    /// [`Extractor::extract`] for each of `texts`, in parallel; the results are in the order
    /// of `texts`.
    ///
    /// ```
    /// #[derive(llm_extract::Extract, Debug, PartialEq)]
    /// struct Score {
    ///     value: u32,
    /// }
    /// let replies = vec![String::from("{'value': 3}"), String::from("Score: {\"Value\": \"4\"}")];
    /// let out = llm_extract::Extractor::new().extract_batch::<Score, _>(&replies);
    /// assert_eq!(out[0].as_ref().unwrap().value, Score { value: 3 });
    /// assert_eq!(out[1].as_ref().unwrap().report.coercions.len(), 2); // key case, "4"
    /// ```
    pub fn extract_batch<T: Extract + Send, S: AsRef<str> + Sync>(
        &self,
        texts: &[S],
    ) -> Vec<Result<Extracted<T>, Error>> {
        texts.par_iter().map(|t| self.extract(t.as_ref())).collect()
    }

    /// [`Extractor::from_str`] for each of `texts`, in parallel; the results are in the order
    /// of `texts`.
    ///
    /// ```
    /// let out = llm_extract::Extractor::new().from_str_batch::<Vec<u32>, _>(&["[1, 2]", "ids: 3, 4"]);
    /// assert_eq!(out[0].as_ref().unwrap(), &vec![1, 2]);
    /// ```
    pub fn from_str_batch<T: Extract + Send, S: AsRef<str> + Sync>(
        &self,
        texts: &[S],
    ) -> Vec<Result<T, Error>> {
        texts
            .par_iter()
            .map(|t| self.from_str(t.as_ref()))
            .collect()
    }
}
