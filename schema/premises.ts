/**
 * Premises: the circumstance an item is written for, which a change must say in its own words for
 * the item to apply to it. A trap of moving a runtime to 3.12 does not meet a release that keeps its
 * runtime; a leaked key's emergency steps do not meet a planned retirement; a webhook's lock-out
 * check does not meet a DaemonSet rollout. With `change` sent, an item whose premise the change
 * names with none of its words is not given in full (a trap becomes one line under "also
 * consider"; a gate or rule is left out, said so); without `change` nothing is decided by it.
 * Each premise's words are defined here once; content names a premise by its id, and
 * gateway/datasets/change-match.ts reads them in a change.
 */
export const PREMISES = {
  /**
   * The change moves the technology itself to another version (its runtime, engine or image). With
   * `dependency-upgrade` asked, a thing the change gives a version ("unpin boto3 1.36") names it
   * for the traps whose line says that thing (gateway/datasets/trap-selection.ts).
   */
  'version-upgrade': 'upgrade migrate migration version major minor eol runtime image',
  /** A credential or key is known or feared to be exposed. */
  'exposed-credential': 'leak leaked exposed exposure compromised compromise breach stolen abuse',
  /** The change adds or edits an admission webhook or the policy engine behind one. */
  'admission-webhook': 'webhook admission gatekeeper kyverno validating mutating opa',
  /** The change upgrades the cluster platform: its control plane, nodes' kubelet or network plugin. */
  'platform-upgrade': 'cluster control plane k8s kubernetes kubelet cni calico cilium eks gke aks openshift',
  /** The certificate is issued over ACME (Let's Encrypt and its rate limits), not bought or imported. */
  'acme-issuance': 'acme letsencrypt encrypt certbot lego issuer clusterissuer',
  /**
   * The change ends an old credential (revokes, disables or deletes it, rotates it away) or answers
   * one exposed. A certificate renewed before it expires ends nothing: the old one lapses.
   */
  revocation:
    'revoke revoked revoking revocation switch switching replace replaced replacing move moving migrate migrating instead deactivate deactivated deactivating disable disabled disabling delete deleted deleting remove removed removing retire retired retiring rotate rotated rotating rotation leak leaked exposed compromised offboard offboarding',
  /** The change deletes data or resources (not only moves, compacts or tiers them). */
  deletion:
    'delete deleting deletion drop purge truncate remove removal wipe destroy cleanup clean prune retire decommission',
  /** The change deletes by age through the store itself: a retention, TTL or lifecycle rule. */
  'deletion-by-age': 'retention ttl lifecycle expire expiry expiration',
  /**
   * The change moves money or writes what must not happen twice (a charge, a refund, an order). An
   * invoice rendered or mailed moves none: "invoice" is not among these words.
   */
  money:
    'payment payments charge charges billing refund refunds transfer transfers ledger purchase checkout money wallet order orders',
  /** Something the change starts or scales can spend money or draw on a provider's quotas. */
  spend:
    'spend cost budget bill billing quota quotas autoscale autoscaler autoscaling scale scaling serverless concurrency vcpu gpu tokens llm invocations',
  /** The change acts, or makes automation act, on a measured signal (a metric, an alert, a reading). */
  'measured-signal':
    'signal metric metrics measurement threshold alert alerts autoscale autoscaler autoscaling scale scaling lag health telemetry reading readings utilization latency',
  /**
   * The change grants or takes away access for people, a group or outsiders. A policy fix for a
   * service's own role (a zone id, a session length) names none of these and is no grant to a person;
   * nor is a workload's "access key" or "IAM user" moved to a role (those words are not here).
   */
  'principal-grant':
    'grant grants granting admin privilege privileges sudo team teams member members group groups rbac readonly contractor contractors vendor vendors auditor auditors analyst analysts engineer engineers employee employees staff human humans external outsider outsiders people person sso',
  /** An agent or automation reads text others write (issues, tickets, mail, pages) or gets a credential. */
  'untrusted-text':
    'agent agents bot bots mcp assistant assistants llm copilot untrusted prompt injection issue issues ticket tickets email emails mail inbox comment comments fork forks webpage webpages scrape scraping',
  /** The change alters what a cache or pool holds, how it keys it, or which responses it serves. */
  'cache-behaviour':
    'cache caching cached cdn edge vary header cookie key ttl rule pool pooling pooler tenant session',
} as const satisfies Record<string, string>

export type Premise = keyof typeof PREMISES

/**
 * Premises a technology's own name says, whatever the change's words: an ACME client (certbot,
 * lego) issues over ACME every time. Other premises stay with the change: naming Kubernetes beside
 * a deploy is no platform upgrade.
 */
export const NAMED_BY_A_TOOL: readonly Premise[] = ['acme-issuance']
export const PREMISE_IDS = Object.keys(PREMISES) as [Premise, ...Premise[]]
