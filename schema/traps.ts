/**
 * The trap layer (content/traps/<technology>.yaml): per technology, the mechanisms that make the
 * obvious plan for a change go wrong, each with a read-only probe, what result means stop, the safe
 * path and a primary source quoted verbatim. Counted apart from the rules, playbooks and gates.
 */
import * as z from 'zod'
import { DIRECTION_IDS } from './directions.js'
import { PREMISE_IDS } from './premises.js'
import { Action, IsoDate } from './vocabulary.js'

const Text = z.string().trim().min(1, 'non-empty text')
/** A technology id or alias as an agent sends it: lower-case words joined by hyphens. */
export const TechnologyName = z
  .string()
  .regex(
    /^[a-z0-9]+(-[a-z0-9]+)*$/,
    'lower-case letters and digits joined by hyphens, no spaces (nginx-plus, not "nginx plus"): what an agent sends',
  )
  .max(40)

export const TECHNOLOGY_KINDS = [
  'database',
  'queue-stream',
  'cache',
  'search',
  'orchestration',
  'proxy-cdn',
  'iac',
  'ci',
  'secrets-identity',
  'observability',
  'cloud-storage',
  'cloud-network',
  'runtime',
] as const

/**
 * How bad the trap's harm is: `irreversible` (data lost, a secret exposed, a one-way change),
 * `outage` (a service down or blocked), `degraded` (slower or partial). Answers rank by it.
 */
export const SEVERITIES = ['irreversible', 'outage', 'degraded'] as const
export type Severity = (typeof SEVERITIES)[number]

export const Trap = z.strictObject({
  /** Starts with the technology id; unique across every technology (the build checks). */
  id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lower-case words joined by hyphens'),
  actions: z.array(Action).min(1, 'at least one action from actions.yaml'),
  /** The versions it holds for (schema/version-range.ts); absent: every version. */
  versions: Text.optional(),
  severity: z.enum(SEVERITIES),
  /** The circumstance it is written for, which a change must name to get it in full (premises.ts). */
  premise: z.enum(PREMISE_IDS).optional(),
  /**
   * The way it is written for, when only one (directions.ts): a trap of shortening a retention is one
   * line for a change that lengthens it. Absent: both ways, or no value moves.
   */
  direction: z.enum(DIRECTION_IDS).optional(),
  /**
   * With premise version-upgrade: the technologies whose upgrade it is written for, when not its
   * own (a Helm release broken by upgrading Kubernetes or EKS); absent, its own.
   */
  upgrade_of: z.array(TechnologyName).min(1).optional(),
  /**
   * Its probe or safe path needs the server itself (a file, a process, a command on the host, or an
   * operation a managed service runs for you): one line when a service that `manages` the engine is named.
   */
  needs_server: z.literal(true).optional(),
  /**
   * The change it is written for is one switch for every client (a singleton process, a queue-,
   * bucket- or cluster-wide setting, a managed blue/green): it cannot be staged by replicas, hosts or
   * a share of traffic, and its safe path says what stands in for a canary. When the change leads
   * with it, the items that stage by units are left out (do-no-harm.ts).
   */
  one_switch: z.literal(true).optional(),
  /**
   * On a technology of several engines: the one it is written for (Aurora's backtrack is Aurora
   * MySQL's; a CDC tool's binlog trap is its MySQL connector's), of the file's `manages` or
   * `connects_to`; one line when the change names another and not it.
   */
  engine: TechnologyName.optional(),
  /** The mechanism and what breaks, in one line. */
  trap: Text.max(300),
  /** A read-only command or query to run first. */
  probe: Text,
  /** The probe result that means: stop, take the safe path. */
  stop_if: Text,
  safe_path: Text.max(400),
  /** A primary source: vendor documentation, the project's tracker or release notes, a postmortem. */
  source_url: z.url({ protocol: /^https$/, error: 'an https URL' }),
  /** Verbatim from source_url. */
  quote: Text,
  read_on: IsoDate,
})
export type Trap = z.infer<typeof Trap>

export const TrapFile = z.strictObject({
  technology: TechnologyName,
  name: Text,
  kind: z.enum(TECHNOLOGY_KINDS),
  /** Written as people say them ("Argo CD"): read lower-cased, spaces as hyphens (argo-cd), as names are asked. */
  aliases: z.array(
    z
      .string()
      .transform((a) => a.trim().toLowerCase().replace(/\s+/g, '-'))
      .pipe(TechnologyName),
  ),
  /**
   * Aliases that name a part released on its own versions (a provider plugin, a fork): a version
   * asked with one is that part's, not this technology's (terraform-provider-azurerm@4.10 is no
   * Terraform 4.10). Each must be one of `aliases`.
   */
  versioned_apart: z.array(z.string()).optional(),
  /**
   * The technologies whose traps also meet a change to this one (a DNS provider: dns; a certificate
   * controller: tls), by id: naming it brings theirs, as the protocol's traps are filed once.
   */
  includes: z.array(TechnologyName).optional(),
  /** A managed service: the engines it runs for you (aws-rds: postgresql, mysql), by technology id. */
  manages: z.array(TechnologyName).optional(),
  /**
   * The engines it reads from or writes to without running them (a CDC tool's connectors, a
   * migration tool's databases), by id: a trap written for one of them carries `engine`.
   */
  connects_to: z.array(TechnologyName).optional(),
  traps: z.array(Trap).min(1, 'at least one trap'),
})
export type TrapFile = z.infer<typeof TrapFile>

/** The engines a file's traps may be written for (`engine`): those it runs for you or connects to. */
export const fileEngines = (f: Pick<TrapFile, 'manages' | 'connects_to'>): string[] => [
  ...(f.manages ?? []),
  ...(f.connects_to ?? []),
]

/** A technology as the free catalogue lists it: what an agent may name, and how many traps are on file. */
export const CoveredTechnology = z.object({
  id: z.string(),
  name: z.string(),
  /** One of TECHNOLOGY_KINDS (a string here: openapi.json has a 64 KB cap). */
  kind: z.string(),
  aliases: z.array(z.string()),
  traps: z.number().int(),
})
export type CoveredTechnology = z.infer<typeof CoveredTechnology>

/** The paid trap bundle: every technology with its traps in full. */
export const TrapsBundle = z.object({ technologies: z.array(TrapFile) })
export type TrapsBundle = z.infer<typeof TrapsBundle>
