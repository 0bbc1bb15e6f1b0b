/**
 * The deploy workflow cannot run here; what it would do can be read. Its steps go upload → smoke →
 * first stage → bake and widen → publish, with every share and wait read from content, a rollback
 * on failure before 100%, and a publish of the built server.json over HTTP login for a new version.
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { SERVER_JSON_PATH } from '../../build/stages/registry.js'
import {
  bakeVerdict,
  deployArgs,
  overrideHeader,
  paymentSmokeKey,
  registryHas,
} from '../../scripts/deploy/deploy-stage.js'
import {
  DEPLOY_RULE,
  DEPLOY_THRESHOLDS,
  deployPlan,
  stagePlan,
} from '../../scripts/deploy/deploy-thresholds.js'

interface Step {
  name?: string
  id?: string
  run?: string
  if?: string
  env?: Record<string, string>
}
const workflow = parse(readFileSync('.github/workflows/deploy.yml', 'utf8')) as {
  jobs: { deploy: { steps: Step[]; env: Record<string, string> } }
}
const steps = workflow.jobs.deploy.steps
const byId = (id: string) => {
  const step = steps.find((s) => s.id === id)
  if (!step) throw new Error(`no step ${id}`)
  return step
}
const at = (id: string) => steps.indexOf(byId(id))
const thresholdsYaml = readFileSync('content/thresholds.yaml', 'utf8')
/** A GitHub Actions secret expression, as the workflow writes it. */
const secret = (name: string) => `$${'{{'} secrets.${name} }}`

describe('deploy workflow', () => {
  it('behavior: build, plan, record, upload, smoke, first stage, bake and widen, then the registry, in that order', () => {
    const order = ['plan', 'record', 'upload', 'smoke', 'first-stage', 'widen', 'registry']
    const positions = order.map(at)
    expect(positions).toEqual([...positions].sort((a, b) => a - b))
    expect(steps.findIndex((s) => s.name === 'Build')).toBeLessThan(at('plan'))
    expect(byId('upload').run).toContain('deploy-stage.ts upload')
    expect(byId('smoke').run).toContain('deploy-stage.ts smoke')
    const widen = byId('widen').run as string
    expect(widen.indexOf('deploy-stage.ts bake')).toBeLessThan(widen.indexOf('deploy-stage.ts stage'))
  })

  it('behavior: every share, wait and error bar comes from the plan step, none is typed', () => {
    expect(byId('plan').run).toBe('npx tsx scripts/deploy/deploy-thresholds.ts content/thresholds.yaml')
    for (const id of ['first-stage', 'widen']) {
      const run = byId(id).run as string
      expect(run).toContain('steps.plan.outputs.')
      expect(run.replace(/\$\{\{[^}]*\}\}/g, ''), id).not.toMatch(/\b\d+\b/)
    }
  })

  it('behavior: nothing deploys all at once: no wrangler deploy, no secret put (each deploys 100%)', () => {
    for (const step of steps) {
      expect(step.run ?? '', step.name).not.toMatch(/wrangler deploy\b/)
      expect(step.run ?? '', step.name).not.toMatch(/wrangler secret put/)
    }
    expect(byId('upload').env).toMatchObject({ PROCESSOR_SECRET: secret('PROCESSOR_SECRET') })
  })

  it('behavior: the smoke step sees the processor key, so a test-mode gateway is paid once end to end', () => {
    expect(byId('smoke').env).toEqual({ PROCESSOR_SECRET: secret('PROCESSOR_SECRET') })
    expect(paymentSmokeKey('sk_test_51Abc')).toBe('sk_test_51Abc')
    expect(paymentSmokeKey('rk_test_51Abc')).toBe('rk_test_51Abc')
    for (const key of ['sk_live_51Abc', 'rk_live_51Abc', '', undefined])
      expect(paymentSmokeKey(key)).toBeUndefined()
  })

  it('behavior: a failure before 100% rolls back in one step; a failure after it does not', () => {
    const rollback = steps.find((s) => s.run?.includes('deploy-stage.ts rollback')) as Step
    expect(rollback.if).toMatch(/failure\(\)/)
    expect(rollback.if).toContain("steps.widen.outcome != 'success'")
    expect(steps.indexOf(rollback)).toBeGreaterThan(at('widen'))
    expect(steps.indexOf(rollback)).toBeLessThan(at('registry'))
  })

  it('behavior: the publish step sends the built server.json over HTTP login, only for a version the registry lacks', () => {
    const file = `dist/public${SERVER_JSON_PATH}`
    expect(byId('registry').run).toBe(`npx tsx scripts/deploy/deploy-stage.ts registry-check ${file}`)
    const publishing = steps.slice(at('registry') + 1)
    expect(publishing.length).toBeGreaterThanOrEqual(3)
    for (const step of publishing) expect(step.if).toContain("steps.registry.outputs.publish == 'true'")
    const login = publishing.find((s) => s.run?.includes('mcp-publisher login')) as Step
    expect(login.run).toMatch(
      /mcp-publisher login http --domain .*BASE_URL.* --private-key "\$MCP_REGISTRY_PRIVATE_KEY"/,
    )
    expect(login.env).toEqual({ MCP_REGISTRY_PRIVATE_KEY: secret('MCP_REGISTRY_PRIVATE_KEY') })
    const publish = publishing.find((s) => s.run?.includes('mcp-publisher publish')) as Step
    expect(publish.run).toContain(`cp ${file} server.json`)
    expect(publishing.indexOf(login)).toBeLessThan(publishing.indexOf(publish))
    // The same build carries the public half, served as the namespace proof.
    const build = steps.find((s) => s.name === 'Build') as Step
    expect(build.env?.MCP_REGISTRY_PUBLIC_KEY).toBe(secret('MCP_REGISTRY_PUBLIC_KEY'))
  })
})

describe('deploy plan from content', () => {
  const values = new Map(
    (parse(thresholdsYaml) as { name: string; value: number }[]).map((t) => [t.name, Number(t.value)]),
  )
  it('behavior: stages start at the first-stage share, widen by at most the factor, reach 100%, bake as long as the rule says', () => {
    const plan = deployPlan(thresholdsYaml)
    const first = values.get(DEPLOY_THRESHOLDS.firstShare) as number
    const factor = values.get(DEPLOY_THRESHOLDS.widening) as number
    expect(plan.stages[0]).toBe(first)
    expect(plan.stages.at(-1)).toBe(100)
    expect(plan.stages.length).toBeGreaterThanOrEqual(values.get(DEPLOY_THRESHOLDS.stagesMin) as number)
    for (let i = 1; i < plan.stages.length; i++)
      expect((plan.stages[i] as number) / (plan.stages[i - 1] as number)).toBeLessThanOrEqual(factor)
    expect(plan.bakeSeconds).toBeGreaterThanOrEqual(60 * (values.get(DEPLOY_THRESHOLDS.bake) as number) - 0)
    expect(plan.errorRiseMaxPoints).toBeGreaterThan(0)
  })

  it('behavior: the names are the ones the rule itself uses', () => {
    const rule = readFileSync(`content/rules/${DEPLOY_RULE}.yaml`, 'utf8')
    for (const name of Object.values(DEPLOY_THRESHOLDS)) expect(rule, name).toContain(`{{${name}}}`)
  })

  it('error: a threshold that disappeared fails the plan and says where renames are recorded', () => {
    const without = thresholdsYaml.replace('name: canary-bake-min', 'name: some-other-name')
    expect(() => deployPlan(without)).toThrow(/canary-bake-min.*git log -p content\/thresholds\.yaml/s)
  })

  it('behavior: the stage arithmetic', () => {
    expect(stagePlan(1, 5, 3)).toEqual([1, 5, 25, 100])
    expect(stagePlan(10, 10, 2)).toEqual([10, 100])
    const three = stagePlan(10, 10, 3)
    expect(three).toHaveLength(3)
    expect(three[0]).toBe(10)
    expect(three.at(-1)).toBe(100)
  })
})

describe('deploy steps', () => {
  const state = [
    { name: 'rules-pricing-submissions', config: 'a.jsonc', previous: 'old-s', next: 'new-s' },
    { name: 'rules-pricing-gateway', config: 'b.jsonc', previous: 'old-g', next: 'new-g' },
  ]
  it('behavior: a stage splits traffic between the new and the recorded version; 100% names only the new one', () => {
    expect(deployArgs(state[1] as (typeof state)[1], 5).slice(0, 4)).toEqual([
      'versions',
      'deploy',
      'new-g@5',
      'old-g@95',
    ])
    expect(deployArgs(state[1] as (typeof state)[1], 100).slice(0, 3)).toEqual([
      'versions',
      'deploy',
      'new-g@100',
    ])
    expect(deployArgs(state[1] as (typeof state)[1], 0).slice(2, 4)).toEqual(['new-g@0', 'old-g@100'])
  })

  it('behavior: the override header reaches both Workers of one side', () => {
    expect(overrideHeader(state, 'next')).toEqual({
      'Cloudflare-Workers-Version-Overrides':
        'rules-pricing-submissions="new-s", rules-pricing-gateway="new-g"',
    })
  })

  it('behavior: the bake stops when the new side fails more often than the old by more than the bar', () => {
    expect(
      bakeVerdict({ next: { probes: 400, failures: 0 }, previous: { probes: 400, failures: 0 } }, 0.1).ok,
    ).toBe(true)
    expect(
      bakeVerdict({ next: { probes: 400, failures: 1 }, previous: { probes: 400, failures: 1 } }, 0.1).ok,
    ).toBe(true)
    expect(
      bakeVerdict({ next: { probes: 400, failures: 1 }, previous: { probes: 400, failures: 0 } }, 0.1).ok,
    ).toBe(false)
  })

  it('behavior: the registry check finds an exact name and version across pages, and nothing else', async () => {
    const pages: Record<string, unknown> = {
      '': {
        servers: [{ server: { name: 'org.example.rules/rules', version: '2.2.0' } }],
        metadata: { nextCursor: 'p2' },
      },
      p2: { servers: [{ server: { name: 'org.example.rules/rules', version: '2.3.0' } }], metadata: {} },
    }
    const server = createServer((req, res) => {
      const cursor = new URL(req.url ?? '/', 'http://x').searchParams.get('cursor') ?? ''
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(pages[cursor] ?? { servers: [] }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v0/servers`
    try {
      expect(await registryHas('org.example.rules/rules', '2.3.0', api)).toBe(true)
      expect(await registryHas('org.example.rules/rules', '2.4.0', api)).toBe(false)
      expect(await registryHas('org.example.rules/other', '2.3.0', api)).toBe(false)
    } finally {
      server.close()
    }
  })
})
