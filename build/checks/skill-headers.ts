/**
 * A skill file's YAML header is what a skill loader reads first, and loaders refuse a header past
 * their limits: `name` at most 64 characters of lowercase words joined by hyphens (never ending in
 * one), `description` at most 1,024 characters. The build renders every skill it can sell for the
 * situations in content/scenarios/ and refuses one that breaks a limit.
 */
import { SKILL_LIMITS } from '../../schema/markdown.js'

const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/

/** The header's name and description, or undefined when the text opens with no header. */
export function skillHeader(text: string): { name: string; description: string } | undefined {
  const match = text.match(/^---\nname: (.*)\ndescription: (.*)\n---\n/)
  if (!match) return undefined
  const raw = match[2] ?? ''
  const description = raw.startsWith('"') ? (JSON.parse(raw) as string) : raw
  return { name: match[1] ?? '', description }
}

/** Every limit the skill's header breaks, in words. */
export function skillHeaderBreaks(text: string): string[] {
  const header = skillHeader(text)
  if (!header) return ['no YAML header with name and description']
  const out: string[] = []
  if (header.name.length > SKILL_LIMITS.name)
    out.push(`name "${header.name}" is ${header.name.length} characters (at most ${SKILL_LIMITS.name})`)
  if (!NAME.test(header.name))
    out.push(`name "${header.name}" is not lowercase words joined by single hyphens (it must not end in one)`)
  if (header.description.length > SKILL_LIMITS.description)
    out.push(`description is ${header.description.length} characters (at most ${SKILL_LIMITS.description})`)
  return out
}
