/**
 * Every compiled bundle must match the schema its answers are published under, so what openapi.json
 * and the MCP outputSchema promise is what the data holds.
 */
import { BUNDLE_SCHEMAS, type BundleData, type BundleName } from '../../schema/datasets.js'
import type { BuildIssue } from '../stages/issues.js'
import { fromZod } from '../stages/zod-issues.js'

export function checkBundles(data: BundleData): BuildIssue[] {
  return (Object.keys(BUNDLE_SCHEMAS) as BundleName[]).flatMap((name) => {
    const result = BUNDLE_SCHEMAS[name].safeParse(data[name])
    return result.success ? [] : fromZod(`(bundle ${name})`, result.error)
  })
}
