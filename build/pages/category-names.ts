/**
 * Reader-facing names of the index categories; the slugs stay the API vocabulary.
 */
import type { IndexCategory } from '../../schema/vocabulary.js'

export const CATEGORY_TITLES: Record<IndexCategory, string> = {
  'coding-agent': 'Coding agents',
  'support-agent': 'Customer-support agents',
  'gtm-agent': 'Go-to-market (sales and marketing) agents',
  'agent-platform': 'Agent-building platforms',
  'voice-agent': 'Voice agents',
  'model-api': 'Model APIs',
  'vertical-ai': 'Vertical (industry-specific) AI',
}
