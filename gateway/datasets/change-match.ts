/**
 * `change`: the change in the agent's own words ("add partitions to the orders topic"). A named
 * technology often has several traps for one action; the one the change walks into is the one
 * whose mechanism is told in the same words. So each trap is scored by the words it shares with the
 * change, each word weighted by how rare it is among the traps asked about (a word every trap of
 * the technology uses tells nothing), and the traps that share words rank first. A word in the
 * trap's one line counts in full; a word only in its probe, stop-if or safe path counts half (the
 * line names the operation; the rest often names what the operation touches: "replicas" on a
 * disk-watermark trap is in neither, "indices" is in its safe path). A trap whose stop-if is scoped
 * to an operation ("Only when the change adds consumers: ...") that the change says no word of
 * scores OUT_OF_SCOPE_WEIGHT as much: its stop-if cannot fire for this change.
 */
import { PREMISES, type Premise } from '../../schema/premises.js'
import { CHANGE_MAX } from '../../schema/routes.js'

/** Words that say nothing about which mechanism a change meets. */
const STOP = new Set(
  'the and for from into onto with without our their its this that these those then than when what which who all any are was were will would can could should must not but about over under via per each every both only also just old use uses used using make need want set get put let one two three four five six seven eight nine ten eleven twelve twenty hundred thousand give gives given giving fix fixes fixed fixing before after during while until since within between across against upon through because whether once again still already very such same there here where they them your have has had does did done been being'.split(
    ' ',
  ),
)

/**
 * Verbs of changing. In a trap's one line they name its operation; in its probe or safe path they
 * describe the fix ("add disk", "set a timeout"), so there they say nothing about the change.
 */
const CHANGE_VERBS =
  'add adds added adding remove change update upgrade move replace enable disable turn switch raise lower increase decrease create delete drop run restart deploy roll apply rotate scale'.split(
    ' ',
  )

/** Words of two letters that name a thing ("ip ranges", "az", "gc", an input's "id"), kept where shorter words go. */
const SHORT_TERMS = new Set(['ip', 'az', 'ha', 'gc', 'db', 'id'])

/**
 * Terms of two words read as one, where one word alone says nothing ("set" is a verb in "set the
 * timeout", a thing in "IP set"; "list" alone is any list): joined before a text is split.
 */
const JOINED_TERMS: [RegExp, string][] = [
  [/\bip[ -]sets?\b/g, 'ipset'],
  [/\brecord[ -]sets?\b/g, 'recordset'],
  [/\breplica[ -]sets?\b/g, 'replicaset'],
  [/\bchange[ -]sets?\b/g, 'changeset'],
  [/\b(allow|block|deny|access)[ -]lists?\b/g, '$1list'],
]

/**
 * A quantity (a number, or a range "from 3 to 7", with its unit) is the size of the change, not its
 * mechanism nor a version: "a timeout of 8 minutes" meets no trap by "minute" (a trap of "300
 * batches a minute" is not about timeouts), and "retention from 3 to 7 days" moves Kafka to no
 * version 7. Read out of a change before its words are matched and its versions read (upgraded.ts).
 */
const QUANTITY =
  /\b(?:from\s+)?\d+(?:\.\d+)?\s*(?:(?:to|-)\s*\d+(?:\.\d+)?\s*)?(?:ms|milliseconds?|secs?|seconds?|mins?|minutes?|hrs?|hours?|days?|weeks?|months?|years?|[kmgtp]i?b|bytes?|percent)\b/gi

export const withoutQuantities = (change: string) => change.replace(QUANTITY, ' ')

/** Plurals that no suffix rule meets. */
const IRREGULAR: Record<string, string> = { indices: 'index', indexes: 'index', ids: 'id' }

/** The suffix-stripped form of a word, before words of one meaning are joined. */
function suffixStem(word: string): string {
  const irregular = IRREGULAR[word]
  if (irregular) return irregular
  // A noun made of a verb is the verb ("deployment", "replication", "encryption").
  const verb = word.replace(/(?<=\w{4})ments?$/, '').replace(/(?<=\w{3}t)ions?$/, '')
  // A consonant doubled before -ed or -ing is one ("stopped", "dropping", "tagged").
  const s = verb.replace(/(ing|ed|es|s|e)$/, '').replace(/(?<=\w\w)([bdgmnprt])\1$/, '$1')
  return s.length >= 3 ? s : word
}

/**
 * Words an engineer uses for one thing, read as one: "grow the pool to eight nodes" is "adding a
 * server" in a trap's line. Only words whose meaning does not change with the technology.
 */
const SAME_AS: Record<string, string> = {
  grow: 'add',
  expand: 'add',
  enlarge: 'add',
  shrink: 'remove',
  decommission: 'remove',
  // Stopping for a while is stopping: a paused consumer holds what a stopped one holds.
  pause: 'stop',
  suspend: 'stop',
  halt: 'stop',
  server: 'node',
  host: 'node',
  instance: 'node',
  machine: 'node',
  // Making a value or a size bigger or smaller, however said ("raise the disk", "a bigger disk").
  raise: 'increase',
  bigger: 'increase',
  larger: 'increase',
  extend: 'increase',
  widen: 'increase',
  lower: 'decrease',
  smaller: 'decrease',
  reduce: 'decrease',
  // A block device a workload keeps its data on ("persistence size" in a chart is its disk).
  disk: 'volume',
  persistence: 'volume',
  pvc: 'volume',
  // Short forms engineers write for the word a trap's line spells out ("env var", "db", "certs").
  env: 'environment',
  var: 'variable',
  db: 'database',
  cert: 'certificate',
  config: 'configuration',
  repo: 'repository',
  creds: 'credential',
  perm: 'permission',
  svc: 'service',
  deps: 'dependency',
  pkg: 'package',
  msg: 'message',
  conn: 'connection',
  prod: 'production',
}
const SAME_STEM = new Map(Object.entries(SAME_AS).map(([w, same]) => [suffixStem(w), suffixStem(same)]))

/** A word's stem: enough to meet "adding"/"add", "partitions"/"partition", "grow"/"add", "hosts"/"nodes". */
export function stem(word: string): string {
  const s = suffixStem(word)
  return SAME_STEM.get(s) ?? s
}

/** The stems of CHANGE_VERBS, built once. */
const VERB_STEMS = new Set(CHANGE_VERBS.map(stem))
/**
 * A release's own verbs: "rolling deploy" meets a trap of rolling deploys, but "deploy" alone, said
 * by every release, tells no more of the trap than "add" does.
 */
const RELEASE_ONLY = new Set(['deploy', 'roll'].map(stem))
/**
 * Verbs that name an operation but not what it acts on: a trap met only by one of them is another
 * operation's. Upgrading is left out: a version change is its own object, and its traps share
 * only the verb with a change that names the versions; so is deploying, whose object is always the
 * release ("a rolling deploy" meets an ECS deployment trap by those words alone).
 */
const OPERATION_ONLY = new Set(
  [...VERB_STEMS].filter((s) => !RELEASE_ONLY.has(s) && !['upgrade', 'update', 'move'].map(stem).includes(s)),
)

/**
 * The distinct stems of a text, with the first word as written for each (to echo back). A setting
 * name also counts as its parts: `number_of_replicas` meets "replicas".
 */
export function wordsOf(text: string): Map<string, string> {
  const words = new Map<string, string>()
  const add = (w: string) => {
    if ((w.length < 3 && !SHORT_TERMS.has(w)) || STOP.has(w) || /^\d+$/.test(w)) return
    const s = stem(w)
    if (!words.has(s)) words.set(s, w)
  }
  const joined = JOINED_TERMS.reduce((t, [term, one]) => t.replace(term, one), text.toLowerCase())
  for (const w of joined.match(/[a-z0-9][a-z0-9_]*/g) ?? []) {
    add(w)
    if (w.includes('_')) for (const part of w.split('_')) add(part)
  }
  return words
}

/** Reads `change`: trimmed, blanks collapsed, lower-cased (what the payment binds), or why not. */
export function readChange(raw: string | undefined): { change?: string } | { detail: string } {
  if (raw === undefined) return {}
  const change = raw.replace(/\s+/g, ' ').trim().toLowerCase()
  if (!change || change.length > CHANGE_MAX)
    return { detail: `change must be 1 to ${CHANGE_MAX} characters of plain words; got ${change.length}` }
  if (!wordsOf(change).size)
    return { detail: `change holds no word to match (e.g. "add partitions to the orders topic")` }
  return { change }
}

/** How well one trap meets the change: its score and the change's words it shares. */
export interface ChangeMatch {
  score: number
  /** The change's words in the trap's id or one line. */
  words: string[]
  /** The change's words found only in its probe, stop-if or safe path. */
  elsewhere: string[]
  /**
   * Its score against each operation of a compound change ("scale the compactor to 2 replicas and
   * raise its memory limit"), in the change's order; absent for a change of one operation.
   */
  parts?: number[]
  /** True when its stop-if is scoped to an operation the change says no word of: it cannot fire here. */
  outOfScope?: true
  /** True when every word it shares is a verb of changing ("add", "scale"): the operation, not its object. */
  verbsOnly?: true
}

/** Where a compound change joins one operation to the next. */
const OPERATION_JOINS = /\s*(?:[,;]|\band\b|\bthen\b|\bplus\b)\s*/

/** The operations of a change, each as the stems it says (none when the change says only one). */
function operationsOf(asked: Map<string, string>, change: string): Set<string>[] {
  const parts = change
    .split(OPERATION_JOINS)
    .map((part) => new Set([...wordsOf(withoutQuantities(part)).keys()].filter((s) => asked.has(s))))
    .filter((part) => part.size)
  return parts.length > 1 ? parts : []
}

/** The weight of a word found only outside the trap's one line, against one in it. */
export const ELSEWHERE_WEIGHT = 0.5

/** The operation a stop-if is scoped to: "Only when the change <operation>: <finding>". */
const ONLY_WHEN = /^\s*only (?:when|if) the change ([^:]{3,160}):/i
/** What a trap scores when its stop-if is scoped to an operation the change says no word of. */
export const OUT_OF_SCOPE_WEIGHT = 0.5

/** The text of a trap that change words are read in. */
export interface MatchableTrap {
  id: string
  trap: string
  probe: string
  stop_if: string
  safe_path: string
}

/**
 * Scores each trap by the change's words found in it, weighted by rarity among the traps given
 * (log(1 + n / traps holding the word)): in full in its id or one line, ELSEWHERE_WEIGHT in the rest.
 * A trap sharing none scores 0. The names of the technologies asked are not counted: "redis" in the
 * change says which technology, which `technologies` already says, not which of its traps.
 */
export function matchChange(
  change: string,
  traps: readonly MatchableTrap[],
  /** Words that name the technologies asked: every trap of one holds them, so they tell no mechanism. */
  names: Iterable<string> = [],
): Map<string, ChangeMatch> {
  const asked = wordsOf(withoutQuantities(change))
  for (const name of names) for (const s of wordsOf(name.replace(/-/g, ' ')).keys()) asked.delete(s)
  const line = traps.map((t) => new Set(wordsOf(`${t.id.replace(/-/g, ' ')} ${t.trap}`).keys()))
  const rest = traps.map((t) => new Set(wordsOf(`${t.probe} ${t.stop_if} ${t.safe_path}`).keys()))
  const holding = (s: string) => traps.filter((_, i) => line[i]?.has(s) || rest[i]?.has(s)).length
  const weight = new Map(
    [...asked.keys()].map((s) => [s, Math.log(1 + traps.length / Math.max(1, holding(s)))]),
  )
  const operations = operationsOf(asked, change)
  // A stop-if scoped to an operation ("Only when the change adds consumers: ...") cannot fire for a
  // change that says none of that operation's words: the trap is met less.
  const scopedTo = traps.map((t) => {
    const clause = ONLY_WHEN.exec(t.stop_if)?.[1]
    if (clause === undefined) return undefined
    // Its objects decide ("adds consumers": consumers); a clause of verbs alone, its verbs.
    const words = [...wordsOf(clause).keys()]
    const objects = words.filter((w) => !VERB_STEMS.has(w))
    return objects.length ? objects : words
  })
  const matches = new Map<string, ChangeMatch>()
  traps.forEach((t, i) => {
    const inLine = [...asked.keys()].filter((s) => line[i]?.has(s))
    const only = [...asked.keys()].filter((s) => !line[i]?.has(s) && rest[i]?.has(s) && !VERB_STEMS.has(s))
    const sum = (ss: string[]) => ss.reduce((total, s) => total + (weight.get(s) ?? 0), 0)
    const scoreIn = (words: (s: string) => boolean) =>
      sum(inLine.filter(words)) + ELSEWHERE_WEIGHT * sum(only.filter(words))
    const scope = scopedTo[i]
    const outOfScope = scope !== undefined && !scope.some((w) => asked.has(w))
    matches.set(t.id, {
      score: scoreIn(() => true) * (outOfScope ? OUT_OF_SCOPE_WEIGHT : 1),
      words: inLine.map((s) => asked.get(s) ?? s),
      elsewhere: only.map((s) => asked.get(s) ?? s),
      ...(operations.length ? { parts: operations.map((op) => scoreIn((s) => op.has(s))) } : {}),
      ...(outOfScope ? { outOfScope: true as const } : {}),
      ...(inLine.length &&
      (inLine.every((s) => OPERATION_ONLY.has(s)) ||
        (inLine.length === 1 && RELEASE_ONLY.has(inLine[0] ?? ''))) &&
      !only.length
        ? { verbsOnly: true as const }
        : {}),
    })
  })
  return matches
}

/** Each premise's word stems, built once per isolate. */
const PREMISE_STEMS = Object.fromEntries(
  Object.entries(PREMISES).map(([id, words]) => [id, new Set(words.split(' ').map(stem))]),
) as Record<Premise, Set<string>>

/**
 * Reads `change` once and answers, per item, whether it names the item's premise
 * (schema/premises.ts): true when the item has none or no change was sent (nothing to decide by),
 * else when the change holds one of the premise's words.
 */
export function premisesNamedBy(change: string | undefined): (premise: Premise | undefined) => boolean {
  return premisesNamedIn(change === undefined ? undefined : wordsOf(change))
}

/** premisesNamedBy for a change whose words (wordsOf) the caller has already read. */
export function premisesNamedIn(
  words: ReadonlyMap<string, string> | undefined,
): (premise: Premise | undefined) => boolean {
  const said = words === undefined ? undefined : [...words.keys()]
  return (premise) =>
    premise === undefined || said === undefined || said.some((s) => PREMISE_STEMS[premise].has(s))
}
