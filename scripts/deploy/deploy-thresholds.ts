/**
 * The staged-deploy plan, read from content at deploy time: the service deploys itself by its own
 * rule `stage-every-production-change`. Nothing here types a number the rule sets; the values come
 * from content/thresholds.yaml by name, so a change there changes the next deploy.
 *
 *   npx tsx scripts/deploy/deploy-thresholds.ts [content/thresholds.yaml]
 *
 * prints the plan and, under GitHub Actions, writes it to $GITHUB_OUTPUT (stages, first_stage,
 * later_stages, bake_seconds, error_rise_max_points). A name that is missing fails with a pointer to where renames are recorded.
 */
import { appendFileSync, readFileSync } from 'node:fs'
import { parse } from 'yaml'

/** The rule the deploy follows, and the threshold names it uses for each role. */
export const DEPLOY_RULE = 'stage-every-production-change'
export const DEPLOY_THRESHOLDS = {
  firstShare: 'first-stage-share-max',
  widening: 'stage-widening-factor-max',
  stagesMin: 'rollout-stages-min',
  bake: 'canary-bake-min',
  errorRise: 'canary-error-rate-rise-max',
} as const

interface Threshold {
  name: string
  value: number
  unit: string
}

export interface DeployPlan {
  /** Traffic shares for the new version, in order; the last is 100. */
  stages: number[]
  /** How long each stage but the last is watched before widening. */
  bakeSeconds: number
  /** The largest rise of the new version's error share over the old one's, in percentage points. */
  errorRiseMaxPoints: number
  /** Where each number came from: threshold name, value and unit as written. */
  sources: Record<keyof typeof DEPLOY_THRESHOLDS, Threshold>
}

const SECONDS: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86_400 }

function seconds(t: Threshold): number {
  const unit = /^(second|minute|hour|day)s?$/.exec(t.unit.trim())
  if (!unit) throw new Error(`${t.name}: unit "${t.unit}" is not a duration (seconds, minutes, hours, days)`)
  return t.value * (SECONDS[unit[1] as string] as number)
}

function percent(t: Threshold): number {
  if (t.unit.trim() !== '%') throw new Error(`${t.name}: unit "${t.unit}" is not %`)
  if (!(t.value > 0 && t.value <= 100)) throw new Error(`${t.name}: ${t.value}% is not a share of traffic`)
  return t.value
}

/**
 * The service's availability target for its own deploys: the share of requests answered without a
 * server error (5xx or a failed probe). A threshold written against "the error budget rate
 * (1 − SLO target)" is scaled by it. This is the service's own objective, not a rule's number.
 */
export const SERVICE_SLO_TARGET_PERCENT = 99.9

/** An error-rate rise in percentage points, written either in points or as a multiple of the error budget. */
function points(t: Threshold): number {
  const unit = t.unit.trim()
  if (/^(percentage points?|pp|%)$/.test(unit)) return t.value
  // "× the error budget (1 − SLO target)", however the rest of the unit is worded.
  if (/^(×|x)\s.*error budget/.test(unit))
    return Math.round(t.value * (100 - SERVICE_SLO_TARGET_PERCENT) * 1e6) / 1e6
  throw new Error(
    `${t.name}: unit "${t.unit}" is neither percentage points nor a multiple of the error budget rate`,
  )
}

function factor(t: Threshold): number {
  if (!/^(×|x|times)$/.test(t.unit.trim()) || !(t.value > 1))
    throw new Error(`${t.name}: not a factor above 1`)
  return t.value
}

/**
 * Stages from the rule: start at the first-stage share, widen by at most the widening factor per
 * step, end at 100%, and have at least the minimum number of stages (extra stages split the widest
 * step in two when the factor alone would reach 100% too soon).
 */
export function stagePlan(first: number, widening: number, stagesMin: number): number[] {
  const stages = [first]
  while ((stages.at(-1) as number) < 100)
    stages.push(Math.min(100, Math.round((stages.at(-1) as number) * widening * 1000) / 1000))
  while (stages.length < stagesMin) {
    let widest = 1
    for (let i = 1; i < stages.length; i++)
      if (
        (stages[i] as number) / (stages[i - 1] as number) >
        (stages[widest] as number) / (stages[widest - 1] as number)
      )
        widest = i
    const mid =
      Math.round(Math.sqrt((stages[widest - 1] as number) * (stages[widest] as number)) * 1000) / 1000
    stages.splice(widest, 0, mid)
  }
  return stages
}

export function deployPlan(thresholdsYaml: string): DeployPlan {
  const all = parse(thresholdsYaml) as Threshold[]
  const byName = new Map(all.map((t) => [t.name, t]))
  const sources = Object.fromEntries(
    Object.entries(DEPLOY_THRESHOLDS).map(([role, name]) => {
      const found = byName.get(name)
      if (!found)
        throw new Error(
          `threshold "${name}" (${role} of ${DEPLOY_RULE}) is not in content/thresholds.yaml; if it was renamed, ` +
            'see `git log -p content/thresholds.yaml` and update DEPLOY_THRESHOLDS in scripts/deploy/deploy-thresholds.ts',
        )
      return [role, { name: found.name, value: Number(found.value), unit: String(found.unit) }]
    }),
  ) as DeployPlan['sources']
  const stagesMin = sources.stagesMin.value
  if (!Number.isInteger(stagesMin) || stagesMin < 2)
    throw new Error(`${sources.stagesMin.name}: not a stage count`)
  return {
    stages: stagePlan(percent(sources.firstShare), factor(sources.widening), stagesMin),
    bakeSeconds: seconds(sources.bake),
    errorRiseMaxPoints: points(sources.errorRise),
    sources,
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2] ?? 'content/thresholds.yaml'
  const plan = deployPlan(readFileSync(file, 'utf8'))
  for (const t of Object.values(plan.sources)) console.log(`${t.name}: ${t.value} ${t.unit}`)
  console.log(
    `stages ${plan.stages.join('% → ')}%, bake ${plan.bakeSeconds} s per stage, stop on an error-share rise over ${plan.errorRiseMaxPoints} points`,
  )
  if (process.env.GITHUB_OUTPUT)
    appendFileSync(
      process.env.GITHUB_OUTPUT,
      [
        `stages=${plan.stages.join(' ')}`,
        `first_stage=${plan.stages[0]}`,
        `later_stages=${plan.stages.slice(1).join(' ')}`,
        `bake_seconds=${plan.bakeSeconds}`,
        `error_rise_max_points=${plan.errorRiseMaxPoints}`,
        '',
      ].join('\n'),
    )
}
