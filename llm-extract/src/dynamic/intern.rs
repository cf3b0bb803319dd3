//! Names a compiled schema hands to the struct and enum readers, which take `'static` specs
//! (the derive's are statics): interned once per distinct name or list of names, for the
//! life of the process, within a fixed budget.

use crate::coerce::keys::{FieldSpec, StructSpec};
use crate::coerce::VariantNames;
use std::collections::{HashMap, HashSet};
use std::sync::{LazyLock, Mutex, PoisonError};

/// The most bytes all schemas compiled in a process may intern (names, aliases, enum
/// values); a schema that would go beyond is refused. Compiling the same schema again
/// interns nothing new.
pub(crate) const BUDGET: usize = 32 << 20;

/// What identifies a struct spec: each field's name and aliases, `deny_unknown`, `flatten`.
type StructKey = (Vec<(String, Vec<String>)>, bool, bool);

#[derive(Default)]
struct Interned {
    names: HashSet<&'static str>,
    structs: HashMap<StructKey, &'static StructSpec>,
    enums: HashMap<Vec<String>, &'static [VariantNames]>,
    bytes: usize,
}

static INTERNED: LazyLock<Mutex<Interned>> = LazyLock::new(Mutex::default);

/// The budget is spent.
#[derive(Debug)]
pub(crate) struct Exhausted;

impl Interned {
    fn name(&mut self, s: &str) -> Result<&'static str, Exhausted> {
        if let Some(found) = self.names.get(s) {
            return Ok(found);
        }
        self.spend(s.len())?;
        let leaked: &'static str = Box::leak(s.to_owned().into_boxed_str());
        self.names.insert(leaked);
        Ok(leaked)
    }

    fn spend(&mut self, bytes: usize) -> Result<(), Exhausted> {
        // Every interned item costs at least a word, so many empty names are bounded too.
        let bytes = bytes.saturating_add(std::mem::size_of::<usize>() * 2);
        if self.bytes.saturating_add(bytes) > BUDGET {
            return Err(Exhausted);
        }
        self.bytes += bytes;
        Ok(())
    }
}

/// `s`, interned.
pub(crate) fn name(s: &str) -> Result<&'static str, Exhausted> {
    let mut interned = INTERNED.lock().unwrap_or_else(PoisonError::into_inner);
    interned.name(s)
}

/// The struct spec of `fields` (name, aliases), interned.
pub(crate) fn struct_spec(
    fields: &[(String, Vec<String>)],
    deny_unknown: bool,
    flatten: bool,
) -> Result<&'static StructSpec, Exhausted> {
    let mut interned = INTERNED.lock().unwrap_or_else(PoisonError::into_inner);
    let key = (fields.to_vec(), deny_unknown, flatten);
    if let Some(found) = interned.structs.get(&key) {
        return Ok(found);
    }
    let mut specs = Vec::with_capacity(fields.len());
    for (name, aliases) in fields {
        let name = interned.name(name)?;
        let aliases: Vec<&'static str> = (aliases.iter())
            .map(|a| interned.name(a))
            .collect::<Result<_, _>>()?;
        interned.spend(aliases.len() * std::mem::size_of::<&str>())?;
        let aliases: &'static [&'static str] = Box::leak(aliases.into_boxed_slice());
        specs.push(FieldSpec { name, aliases });
    }
    interned.spend(specs.len() * std::mem::size_of::<FieldSpec>())?;
    let spec: &'static StructSpec = Box::leak(Box::new(StructSpec {
        fields: Box::leak(specs.into_boxed_slice()),
        deny_unknown,
        flatten,
    }));
    interned.structs.insert(key, spec);
    Ok(spec)
}

/// The variant names of an enum's string values, interned.
pub(crate) fn variants(values: &[String]) -> Result<&'static [VariantNames], Exhausted> {
    let mut interned = INTERNED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(found) = interned.enums.get(values) {
        return Ok(found);
    }
    let mut names = Vec::with_capacity(values.len());
    for v in values {
        names.push(VariantNames {
            name: interned.name(v)?,
            aliases: &[],
        });
    }
    interned.spend(names.len() * std::mem::size_of::<VariantNames>())?;
    let names: &'static [VariantNames] = Box::leak(names.into_boxed_slice());
    interned.enums.insert(values.to_vec(), names);
    Ok(names)
}
