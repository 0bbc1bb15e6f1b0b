/**
 * A scenario: a situation an SRE would recognise, written in plain words with its action and
 * facts, and what must hold of the answer (content/scenarios/*.yaml). The build evaluates the
 * router on every scenario and fails on a miss, so content cannot drift from the situations it
 * was written for. A replay re-enacts the situation a rule's incident was learned in.
 */
import * as z from 'zod'
import { Action } from './vocabulary.js'

const Id = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lowercase words joined by hyphens')
const Text = z.string().trim().min(1, 'non-empty text')
const Ids = z.array(Id).default([])
const Expected = z.strictObject({ gates: Ids, rules: Ids })

export const Scenario = z.strictObject({
  id: Id,
  /** The situation in plain words: who is doing what, where, and how it is going. */
  situation: Text,
  /** The rule whose incident this scenario re-enacts, as its operators stood before it. */
  replays: Id.optional(),
  /** The action, or the actions of a change that is several at once (the answer is their union). */
  action: z.union([Action, z.array(Action).min(2)]),
  /** The answers the agent in this situation can give; unanswered facts are left out. */
  facts: z.record(z.string(), z.union([z.boolean(), z.number().int(), z.string()])).default({}),
  /** Gates and rules that must be in the answer. */
  must_apply: Expected.default({ gates: [], rules: [] }),
  /** Gates and rules that must not be in the answer. */
  must_not_apply: Expected.default({ gates: [], rules: [] }),
  /** The most gates and rules the answer may hold. */
  max: z
    .strictObject({ gates: z.number().int().min(0).optional(), rules: z.number().int().min(0).optional() })
    .optional(),
})
export type Scenario = z.infer<typeof Scenario>
