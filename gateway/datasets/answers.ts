/**
 * Per-route answers from the compiled data: validate the filters, resolve them against the data,
 * and hand back the payload builder (and its Markdown, where asked). A filter that matches nothing
 * is a 404 listing valid values, decided here, before any payment challenge. Pure: no asset store
 * and nothing generated, so the build measures the very answers the gateway sells.
 */
import type { CheckSpec } from '../../schema/content.js'
import type { BundleData, Freshness, PublishedPricingRow, PublishedRule } from '../../schema/datasets.js'
import {
  checklistMarkdown,
  FORMATS,
  type MarkdownFormat,
  type Origin,
  playbooksMarkdown,
  rulesMarkdown,
  standingMarkdown,
} from '../../schema/markdown.js'
import { datedSummary } from '../../schema/price-dates.js'
import { INCLUDES, ROUTES, SERVICE_NAME } from '../../schema/routes.js'
import {
  type AppliesBecause,
  appliesBecause,
  normalisedSituation,
  readSituation,
  type Situation,
  situationActions,
} from '../../schema/situation.js'
import { ACTIONS, findPhase, INDEX_CATEGORIES, IsoDate } from '../../schema/vocabulary.js'
import { workedOut } from '../../schema/worked-thresholds.js'
import { badRequest, notFound, type Problem } from '../http/problem.js'
import { normaliseQuery } from '../payment/binding.js'
import { planPoints } from './plan-points.js'
import type { Filters, Prepared } from './query.js'
import { rank } from './ranking.js'
import {
  extrasFilters,
  type RankedAnswer,
  rankedAnswer,
  rankedFields,
  readExtras,
  technologiesProblem,
} from './situated-answer.js'
import { readAskedTechnologies, selectTraps } from './trap-selection.js'

const DAY_MS = 24 * 60 * 60 * 1000
/** Where the free preview's trap lines are sold in full. */
const PAID_TRAPS_AT = 'GET /v1/fde-preship-checklist with technologies and action'
/** A failed bundle read is retried by the next request; a client need not wait long. */
export const DATA_RETRY_AFTER_S = 5

/**
 * Reads the situation (action and facts) from the filters left after the route's own, keeps the
 * items whose check applies, each with why; a wrong name or value is a 400 naming it, and a
 * situation nothing applies to is a 404. Both come before any challenge, so nothing is charged.
 */
function situate<T extends { id: string }>(
  data: BundleData,
  items: readonly T[],
  specOf: (item: T) => CheckSpec,
  entries: Filters,
  what: string,
  /** Traps of a named technology may fill an answer no gate or rule applies to: no 404 then. */
  allowEmpty = false,
):
  | {
      ok: true
      items: T[]
      because: Record<string, AppliesBecause>
      situation: Situation
      filters: Filters
      named: boolean
    }
  | { ok: false; problem: Problem } {
  const facts = data.catalogue.facts
  const given = Object.entries(entries).filter((e): e is [string, string] => e[1] !== undefined)
  const read = readSituation(given, facts)
  if ('parameter' in read)
    return {
      ok: false,
      problem: badRequest(read.detail, { parameter: read.parameter, allowed: read.allowed }),
    }
  const { situation } = read
  const named = given.length > 0
  if (!named) return { ok: true, items: [...items], because: {}, situation, filters: {}, named }
  const because: Record<string, AppliesBecause> = {}
  const kept = items.filter((item) => {
    const why = appliesBecause(specOf(item), situation, facts)
    if (why) because[item.id] = why
    return why !== undefined
  })
  const filters = normalisedSituation(situation, facts)
  if (!kept.length && !allowEmpty)
    return {
      ok: false,
      problem: notFound(
        `no ${what} applies to this situation (${normaliseQuery(filters)}); nothing was charged`,
        {
          parameter: situationActions(situation).length ? 'action' : Object.keys(filters)[0],
          situation: filters,
          // The actions something here applies to, as the action filter has always listed them.
          allowed: ACTIONS.filter((a) => items.some((i) => specOf(i).applies_to.includes(a))),
        },
      ),
    }
  return { ok: true, items: kept, because, situation, filters, named }
}

/**
 * Named technologies let an answer with no gate or rule through for their traps; when none came
 * either, nothing is sold: a 404 that says which names have no trap on file, before any challenge.
 */
function nothingApplies(what: string, situation: Filters, answer: RankedAnswer): Prepared {
  return {
    ok: false,
    problem: notFound(
      `no ${what} or trap applies to this situation (${normaliseQuery(situation)}); ${answer.echo?.notes.join('; ') ?? ''}; nothing was charged`,
      { parameter: 'technologies', situation, notes: answer.echo?.notes ?? [] },
    ),
  }
}

/** The index's freshness narrowed to one category's rows: its due rows and their count. */
function categoryFreshness(freshness: Freshness, rows: readonly PublishedPricingRow[]): Freshness {
  const ids = new Set(rows.map((r) => r.id))
  const due = freshness.due_rows.filter((id) => ids.has(id))
  return { ...freshness, due_for_reread: due.length, due_rows: due, ...datedSummary(rows, freshness.as_of) }
}

/** Items carrying the topic (all items without one), under `key`; no match is a 404 listing the valid topics. */
function byTopic(
  key: string,
  items: readonly { tags: string[] }[],
  topic: string | undefined,
  what: string,
): Prepared {
  const t = topic?.toLowerCase()
  const matched = t === undefined ? items : items.filter((i) => i.tags.includes(t))
  if (!matched.length)
    return {
      ok: false,
      problem: notFound(`no ${what} has the topic "${t}"; nothing was charged`, {
        parameter: 'topic',
        allowed: [...new Set(items.flatMap((i) => i.tags))].sort(),
      }),
    }
  return {
    ok: true,
    filters: { topic: t },
    payload: () => ({ ...(t ? { topic: t } : {}), count: matched.length, [key]: matched }),
  }
}

/** Every rule a situated answer chooses from: the foundational ones (free) and the paid ones. */
const wholeRuleSet = (data: BundleData): PublishedRule[] => [...data.preview.rules, ...data.lessons.rules]

/** The rules that apply to a situation already read (none named: every rule, without why). */
function situatedRules(data: BundleData, situation: Situation, named: boolean) {
  const all = wholeRuleSet(data)
  if (!named) return { items: all, because: {} }
  const because: Record<string, AppliesBecause> = {}
  const items = all.filter((r) => {
    const why = appliesBecause(r.constraint.check_spec, situation, data.catalogue.facts)
    if (why) because[r.id] = why
    return why !== undefined
  })
  return { items, because }
}

/**
 * What a situated answer adds beside its items: the playbooks that fit the situation (named, with
 * why; their steps are sold at /v1/fde-playbooks), the thresholds worked out for its facts, and
 * what the plan must say that no item can know (gateway/datasets/plan-points.ts).
 */
function fitting(
  data: BundleData,
  situation: Situation,
  items: readonly { id: string; thresholds: PublishedRule['thresholds'] }[],
  change: string | undefined,
) {
  const facts = data.catalogue.facts
  const points = planPoints(data.checklist.plan_points, situation, facts, change)
  const playbooks = data.playbooks.playbooks.flatMap((p) => {
    const why = appliesBecause(p, situation, facts)
    return why ? [{ id: p.id, title: p.title, when: p.when, applies_because: why }] : []
  })
  const worked = workedOut(items, situation.facts)
  return {
    playbooks,
    ...(Object.keys(worked).length ? { worked_out: worked } : {}),
    ...(points.length ? { plan_points: points } : {}),
  }
}

type PrepareRoute = (data: BundleData, filters: Filters, now: number) => Prepared

/**
 * A rules route that also answers in Markdown: `format` (json, agents-md or skill) is read first
 * and bound into the payment with the other filters, so one payment buys one representation. The
 * Markdown opens with where it came from and the request that fetches it again.
 */
function inFormat<A>(
  routeName: string,
  renderer: (format: MarkdownFormat, answer: A, origin: Origin, data: BundleData) => string,
  inner: PrepareRoute,
): PrepareRoute {
  const route = ROUTES.find((r) => r.name === routeName)
  if (!route) throw new Error(`no route ${routeName}`)
  return (data, { format, ...f }, now) => {
    const wanted = format?.trim().toLowerCase() ?? 'json'
    if (!(FORMATS as readonly string[]).includes(wanted))
      return {
        ok: false,
        problem: badRequest(`unknown format "${format}"`, { parameter: 'format', allowed: FORMATS }),
      }
    const prepared = inner(data, f, now)
    if (!prepared.ok || wanted === 'json') return prepared
    const md = wanted as MarkdownFormat
    const filters = { ...prepared.filters, format: md }
    const query = normaliseQuery(filters)
    const origin: Origin = {
      service: SERVICE_NAME,
      version: data.catalogue.version,
      content_date: data.catalogue.content_date,
      fetch: `${route.method} ${route.path}${query ? `?${query}` : ''}`,
      ...(route.mcpTool ? { mcp_tool: route.mcpTool } : {}),
    }
    return {
      ...prepared,
      filters,
      markdown: () => renderer(md, prepared.payload() as A, origin, data),
    }
  }
}

export const PREPARE: Record<string, (data: BundleData, filters: Filters, now: number) => Prepared> = {
  catalogue: (data) => ({ ok: true, filters: {}, payload: () => data.catalogue }),
  // The free foundational rules; as Markdown, the standing instructions an agent keeps (AGENTS.md).
  preview: inFormat(
    'preview',
    (format, answer, origin, data) =>
      standingMarkdown(format, data, origin, answer as Parameters<typeof standingMarkdown>[3]),
    (data, f) => {
      const rules = byTopic('rules', data.preview.rules, f.topic, 'foundational rule')
      if (!rules.ok || f.technologies === undefined) return rules
      const read = readAskedTechnologies(f.technologies, data.traps)
      if ('parameter' in read) return { ok: false, problem: technologiesProblem(read.detail) }
      // Free: which traps are on file for the names, one line each; the probe, stop condition, safe
      // path and source are in the paid situated answers.
      const selection = selectTraps(data.traps, read.resolved, read.normalised, [])
      return {
        ok: true,
        filters: { ...rules.filters, technologies: read.normalised },
        uncovered: selection.uncovered,
        payload: () => ({
          ...(rules.payload() as object),
          technologies: selection.echo,
          // Every trap on file for the names, most severe first: the preview lists them all.
          ranked: rank(
            { traps: selection.traps, gates: [], rules: [], because: {} },
            Math.max(1, selection.traps.length),
          ).ranked.map((t) => ({
            ...t,
            why: `${t.why}; probe, stop_if, safe_path and source: ${PAID_TRAPS_AT}`,
          })),
        }),
      }
    },
  ),
  lessons: inFormat('lessons', rulesMarkdown, (data, f) => {
    const { topic, technologies, limit, change, ...rest } = f
    const extras = readExtras(data, technologies, limit, change)
    if ('problem' in extras) return { ok: false, problem: extras.problem }
    const ranking = extras.technologies !== undefined || extras.limitGiven
    // Without a situation: the paid rules (the foundational ones are free at /v1/fde-lessons/preview).
    if (!Object.keys(rest).length && !ranking) return byTopic('rules', data.lessons.rules, topic, 'paid rule')
    const byTag = byTopic('rules', wholeRuleSet(data), topic, 'rule')
    if (!byTag.ok) return byTag
    const tagged = (byTag.payload() as { rules: PublishedRule[] }).rules
    const situated = situate(
      data,
      tagged,
      (r) => r.constraint.check_spec,
      rest,
      'rule',
      extras.technologies !== undefined,
    )
    if (!situated.ok) return situated
    const answer = rankedAnswer(
      data,
      extras,
      situationActions(situated.situation),
      situated.situation.facts,
      {
        gates: [],
        rules: situated.items,
        because: situated.because,
      },
    )
    if (!answer.ranked.length) return nothingApplies('rule', situated.filters, answer)
    return {
      ok: true,
      filters: { ...byTag.filters, ...situated.filters, ...extrasFilters(extras) },
      uncovered: answer.uncovered,
      payload: () => ({
        ...byTag.filters,
        situation: situated.filters,
        count: answer.rules.length,
        rules: answer.rules,
        applies_because: answer.because,
        ...rankedFields(answer),
        // Only a situation named (action or facts) has playbooks that fit it and values to work out.
        ...(situated.named ? fitting(data, situated.situation, answer.rules, extras.change) : {}),
      }),
    }
  }),
  playbooks: inFormat('playbooks', playbooksMarkdown, (data, f) =>
    byTopic('playbooks', data.playbooks.playbooks, f.topic, 'playbook'),
  ),
  checklist: inFormat('checklist', checklistMarkdown, (data, f) => {
    const { phase: phaseFilter, include, technologies, limit, change, ...rest } = f
    const extras = readExtras(data, technologies, limit, change)
    if ('problem' in extras) return { ok: false, problem: extras.problem }
    const phase = phaseFilter === undefined ? undefined : findPhase(phaseFilter)
    if (phaseFilter !== undefined && !phase)
      return {
        ok: false,
        problem: badRequest(`unknown phase "${phaseFilter}"`, {
          parameter: 'phase',
          allowed: data.catalogue.phases.map((p) => p.slug),
        }),
      }
    const withRules = include?.trim().toLowerCase()
    if (withRules !== undefined && !(INCLUDES as readonly string[]).includes(withRules))
      return {
        ok: false,
        problem: badRequest(`unknown include "${include}"`, { parameter: 'include', allowed: INCLUDES }),
      }
    const all = data.checklist.checklist
    const inPhase = phase ? all.filter((g) => g.phase_slug === phase.slug) : all
    if (!inPhase.length)
      return {
        ok: false,
        problem: notFound(`no gate in ${phase?.name}; nothing was charged`, {
          parameter: 'phase',
          allowed: [...new Set(all.map((g) => g.phase_slug))],
        }),
      }
    const situated = situate(
      data,
      inPhase,
      (g) => g.check_spec,
      rest,
      'gate',
      extras.technologies !== undefined,
    )
    if (!situated.ok) return situated
    // include=rules: the rules of the same situation in the same answer, for the same one payment.
    const rules = withRules ? situatedRules(data, situated.situation, situated.named) : undefined
    const because = { ...situated.because, ...(rules?.because ?? {}) }
    const base = {
      ...(phase ? { phase: phase.slug } : {}),
      ...(withRules ? { include: withRules } : {}),
      ...situated.filters,
    }
    // Unsituated (no action, facts, technologies or limit): the whole list, as it has always been.
    if (!situated.named && extras.technologies === undefined && !extras.limitGiven) {
      const gates = situated.items
      return {
        ok: true,
        filters: base,
        payload: () => ({
          ...(phase ? { phase: phase.name } : {}),
          count: gates.length,
          checklist: gates,
          ...(rules ? { rules_count: rules.items.length, rules: rules.items } : {}),
        }),
      }
    }
    const answer = rankedAnswer(
      data,
      extras,
      situationActions(situated.situation),
      situated.situation.facts,
      {
        gates: situated.items,
        rules: rules?.items ?? [],
        because,
      },
    )
    if (!answer.ranked.length) return nothingApplies('gate', situated.filters, answer)
    return {
      ok: true,
      filters: { ...base, ...extrasFilters(extras) },
      uncovered: answer.uncovered,
      payload: () => ({
        ...(phase ? { phase: phase.name } : {}),
        ...(situated.filters.action ? { action: situated.filters.action } : {}),
        ...(situated.named ? { situation: situated.filters } : {}),
        count: answer.gates.length,
        checklist: answer.gates,
        ...(rules ? { rules_count: answer.rules.length, rules: answer.rules } : {}),
        ...(situated.named ? { applies_because: answer.because } : {}),
        ...rankedFields(answer),
        ...(situated.named
          ? fitting(data, situated.situation, [...answer.gates, ...answer.rules], extras.change)
          : {}),
      }),
    }
  }),
  pricing: (data, f) => {
    if (f.category === undefined) return { ok: true, filters: {}, payload: () => data.pricing }
    const category = f.category.toLowerCase()
    if (!(INDEX_CATEGORIES as readonly string[]).includes(category))
      return {
        ok: false,
        problem: badRequest(`unknown category "${f.category}"`, {
          parameter: 'category',
          allowed: INDEX_CATEGORIES,
        }),
      }
    const rows: PublishedPricingRow[] = data.pricing.rows.filter((r) => r.category === category)
    if (!rows.length)
      return {
        ok: false,
        problem: notFound(`no published row in ${category} yet; nothing was charged`, {
          parameter: 'category',
          allowed: [...new Set(data.pricing.rows.map((r) => r.category))].sort(),
        }),
      }
    return {
      ok: true,
      filters: { category },
      payload: () => ({
        category,
        rows,
        comparables: data.pricing.comparables.filter((c) => c.category === category),
        latest_correction: data.pricing.latest_correction,
        freshness: categoryFreshness(data.pricing.freshness, rows),
      }),
    }
  },
  changes: (data, f, now) => {
    const since = f.since ?? new Date(now - 30 * DAY_MS).toISOString().slice(0, 10)
    if (!IsoDate.safeParse(since).success)
      return {
        ok: false,
        problem: badRequest(`since "${since}" is not a real date written YYYY-MM-DD`, { parameter: 'since' }),
      }
    if (since > new Date(now).toISOString().slice(0, 10))
      return { ok: false, problem: badRequest(`since ${since} is in the future`, { parameter: 'since' }) }
    const corrections = data.changes.corrections.filter((c) => c.date >= since)
    if (!corrections.length)
      return {
        ok: false,
        problem: notFound(`no correction at or after ${since}; nothing was charged`, {
          parameter: 'since',
          latest_correction: data.pricing.latest_correction,
        }),
      }
    // The default window moves with the clock, so the binding names the date it resolved to.
    return {
      ok: true,
      filters: { since },
      payload: () => ({ since, count: corrections.length, corrections }),
    }
  },
}
