// The agency admin's Single Sign-On screen (issue 42 point 1, ADR 088): identity providers (OIDC
// by discovery URL, client id and secret), the email domains claimed for them with their DNS
// TXT record, Verify and "Require SSO", and "Test connection", which opens the provider's
// sign-in in a new window and shows the claims it sent. The secret is never shown again.
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { Copy, Globe, KeyRound, ShieldCheck } from 'lucide-react'
import { type ReactNode, useId, useState } from 'react'
import { toast } from 'sonner'
import {
  ErrorList,
  FormCheckbox,
  FormField,
  FormMessage,
  FormSelect,
  useSchemaForm,
} from '#app/components/forms'
import { PageHeader } from '#app/components/people/people-ui'
import { Badge } from '#app/components/ui/badge'
import { Button } from '#app/components/ui/button'
import { ConfirmActions, ConfirmDialog } from '#app/components/ui/dialog'
import { EmptyState } from '#app/components/ui/empty-state'
import { Panel } from '#app/components/ui/panel'
import { StatusButton } from '#app/components/ui/status-button'
import { Subsection } from '#app/components/ui/titled-section'
import type { ssoSettingsLoader } from '#app/sso/sso-settings-route.server'
import { SsoSettingsSchema } from '#app/validation/sso'

type Data = Awaited<ReturnType<typeof ssoSettingsLoader>>
type Provider = Data['providers'][number]
type Domain = Data['domains'][number]
type Reply = { intent?: string | null; result?: SubmissionResult<string[]>; error?: string }

/** The action's reply when it answers the form `formKey` (its intent, and the row's id). */
function useReplyFor(intent: string, id?: string) {
  const reply = useActionData<Reply>()
  const navigation = useNavigation()
  const pending =
    navigation.state === 'submitting' &&
    navigation.formData?.get('intent') === intent &&
    (!id ||
      navigation.formData?.get('providerId') === id ||
      navigation.formData?.get('domainId') === id)
  const mine = reply?.intent === intent ? reply : null
  return { lastResult: mine?.result, pending }
}

type ProviderField = Parameters<typeof FormField>[0]['field']

/** A provider form's starting values: the provider's own when editing, else an enabled new one. */
function providerDefaults(
  intent: string,
  provider: Provider | undefined,
  protocolFields: Record<string, string>,
) {
  return {
    intent,
    displayName: provider?.displayName ?? '',
    ...protocolFields,
    jitRole: provider?.jitRole ?? 'end_user',
    enabled: provider ? (provider.enabled ? 'on' : undefined) : 'on',
    ...(provider ? { providerId: provider.id } : {}),
  } as never
}

/** A provider's form: a new one's, or an existing one's in place of its row (onDone: Cancel). */
type ProviderFormProps = { provider?: Provider; roles: Data['roles']; onDone?: () => void }

/**
 * What an OIDC and a SAML provider form share around the protocol's own fields (`children`): the
 * errors, intent and (when editing) id, the name, then new accounts' role, Enabled and buttons.
 */
function ProviderFormFrame({
  provider,
  roles,
  onDone,
  intent,
  formId,
  protocolDefaults,
  nameHint,
  focusName = false,
  pendingText,
  children,
}: ProviderFormProps & {
  intent: string
  formId: string
  protocolDefaults: Record<string, string>
  nameHint: string
  focusName?: boolean
  pendingText: string
  children: (f: Record<string, ProviderField>) => ReactNode
}) {
  const { lastResult, pending } = useReplyFor(intent, provider?.id)
  const [form, fields] = useSchemaForm(SsoSettingsSchema, {
    id: formId,
    lastResult,
    defaultValue: providerDefaults(intent, provider, protocolDefaults),
  })
  const f = fields as unknown as Record<string, ProviderField>
  return (
    <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
      {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      <input type="hidden" name="intent" value={intent} />
      {provider ? <input type="hidden" name="providerId" value={provider.id} /> : null}
      <FormField
        label="Name"
        field={f.displayName as never}
        hint={nameHint}
        autoFocus={focusName}
      />
      {children(f)}
      <FormSelect label="Role of people who sign in for the first time" field={f.jitRole as never}>
        {roles.map((role) => (
          <option key={role.value} value={role.value}>
            {role.label}
          </option>
        ))}
      </FormSelect>
      <FormCheckbox
        field={f.enabled as never}
        label="Enabled"
        description="People of this provider's domains can sign in with it."
      />
      <div className="flex flex-wrap gap-2">
        <StatusButton pending={pending} pendingText={pendingText}>
          {provider ? 'Save provider' : 'Add provider'}
        </StatusButton>
        {onDone ? (
          <Button type="button" variant="secondary" onClick={onDone}>
            Cancel
          </Button>
        ) : null}
      </div>
    </Form>
  )
}

function ProviderForm(props: ProviderFormProps) {
  const { provider } = props
  return (
    <ProviderFormFrame
      {...props}
      intent={provider ? 'edit-provider' : 'add-provider'}
      formId={provider ? `provider-${provider.id}` : 'add-provider'}
      protocolDefaults={{
        issuerUrl: provider?.issuerUrl ?? '',
        clientId: provider?.clientId ?? '',
      }}
      nameHint="What you call it here and in the audit log, such as Contoso Entra ID."
      // Edit replaces its button with this form: the focus goes to the form's first field.
      focusName={Boolean(provider)}
      pendingText="Checking the provider…"
    >
      {(f) => (
        <>
          <FormField
            label="Issuer or discovery URL"
            field={f.issuerUrl as never}
            type="url"
            inputMode="url"
            hint="For example https://login.microsoftonline.com/{tenant-id}/v2.0 or https://your-org.okta.com"
          />
          <FormField label="Client ID" field={f.clientId as never} autoComplete="off" />
          <FormField
            label="Client secret"
            field={f.clientSecret as never}
            type="password"
            autoComplete="new-password"
            hint={
              provider?.hasSecret
                ? 'A secret is stored. Leave this empty to keep it, or paste a new one.'
                : 'Stored encrypted, and never shown again.'
            }
          />
        </>
      )}
    </ProviderFormFrame>
  )
}

/**
 * A SAML provider (ADR 090): its metadata by URL, fetched on save, or its XML pasted (Google
 * Workspace gives a file, not a URL). Saving reads the IdP's entity id, sign-in URL and
 * certificates from it; a pasted XML is kept in the form when it is refused.
 */
function SamlProviderForm(props: ProviderFormProps) {
  const { provider } = props
  return (
    <ProviderFormFrame
      {...props}
      intent={provider ? 'edit-saml-provider' : 'add-saml-provider'}
      formId={provider ? `saml-provider-${provider.id}` : 'add-saml-provider'}
      protocolDefaults={{ metadataUrl: provider?.samlMetadataUrl ?? '' }}
      nameHint="What people see on the sign-in page, such as Contoso Entra ID."
      pendingText="Reading the metadata…"
    >
      {(f) => <SamlMetadataFields f={f} />}
    </ProviderFormFrame>
  )
}

/** The IdP's metadata: its URL, or its XML pasted. */
function SamlMetadataFields({ f }: { f: Record<string, ProviderField> }) {
  const xml = f.metadataXml as ProviderField
  const xmlHintId = `${xml.id}-hint`
  return (
    <>
      <FormField
        label="Metadata URL"
        field={f.metadataUrl as never}
        type="url"
        inputMode="url"
        hint="Entra ID: App Federation Metadata Url. Okta: the Metadata URL of the app's Sign On tab."
      />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={xml.id} className="text-sm font-medium">
          Or paste the metadata XML
        </label>
        <textarea
          id={xml.id}
          name={xml.name}
          rows={4}
          spellCheck={false}
          defaultValue={(xml.initialValue as string | undefined) ?? ''}
          aria-invalid={xml.errors?.length ? true : undefined}
          aria-describedby={`${xmlHintId}${xml.errors?.length ? ` ${xml.errorId}` : ''}`}
          placeholder={'<EntityDescriptor entityID="…">'}
          className="w-full rounded-md border border-gray-300 p-3 font-mono text-xs aria-[invalid]:border-red-500 dark:border-gray-700 dark:bg-gray-900"
        />
        <p id={xmlHintId} className="text-xs text-gray-500 dark:text-gray-400">
          Google Workspace: the IdP metadata file you download when adding a custom SAML app.
        </p>
        <ErrorList id={xml.errorId} errors={xml.errors} />
      </div>
    </>
  )
}

/** A value to copy into the IdP, with a Copy button. */
function CopyValue({ label, value }: { label: string; value: string }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(value)
      toast.success(`${label} copied`)
    } catch {
      toast.error(`Could not copy. Select the ${label.toLowerCase()} and copy it instead.`)
    }
  }
  return (
    <div className="flex flex-col gap-1">
      <dt className="text-sm font-medium">{label}</dt>
      <dd className="flex items-start gap-2">
        <code className="min-w-0 flex-1 break-all rounded bg-gray-50 p-2 text-xs dark:bg-gray-900">
          {value}
        </code>
        <Button
          type="button"
          size="sm"
          variant="secondary"
          aria-label={`Copy ${label.toLowerCase()}`}
          onClick={() => void copy()}
        >
          <Copy aria-hidden className="h-4 w-4" />
        </Button>
      </dd>
    </div>
  )
}

/** What the admin copies into the IdP for a SAML provider. */
function ServiceProviderValues({ values }: { values: Data['serviceProviders'][string] }) {
  return (
    <div className="flex flex-col gap-2 rounded-lg border border-gray-200 p-3 dark:border-gray-800">
      <p className="text-sm font-medium">For your identity provider</p>
      <dl className="flex flex-col gap-2">
        <CopyValue label="Entity ID (Identifier, Audience URI)" value={values.entityId} />
        {values.acsUrls.map((url, index) => (
          <CopyValue
            key={url}
            label={
              values.acsUrls.length > 1
                ? `ACS URL (Reply URL) ${index + 1} of ${values.acsUrls.length}`
                : 'ACS URL (Reply URL, Single sign-on URL)'
            }
            value={url}
          />
        ))}
      </dl>
      <a
        href={values.metadataUrl}
        target="_blank"
        rel="noreferrer"
        className="text-sm font-medium text-brand-text underline-offset-4 hover:underline"
      >
        Open the service provider metadata
      </a>
    </div>
  )
}

/** A form of one button: the intent and the row's id in hidden fields. */
function ButtonForm({
  intent,
  idName,
  id,
  label,
  pendingText,
  variant = 'secondary',
  extra,
  target,
}: {
  intent: string
  idName: 'providerId' | 'domainId'
  id: string
  label: string
  pendingText: string
  variant?: 'primary' | 'secondary' | 'danger'
  extra?: Record<string, string>
  target?: '_blank'
}) {
  const { pending } = useReplyFor(intent, id)
  return (
    <Form method="POST" target={target} reloadDocument={target === '_blank'}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={idName} value={id} />
      {Object.entries(extra ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <StatusButton
        size="sm"
        variant={variant}
        pending={target ? false : pending}
        pendingText={pendingText}
      >
        {label}
      </StatusButton>
    </Form>
  )
}

function RemoveButton({
  intent,
  idName,
  id,
  title,
  description,
}: {
  intent: string
  idName: 'providerId' | 'domainId'
  id: string
  title: string
  description: string
}) {
  const { pending } = useReplyFor(intent, id)
  return (
    <ConfirmDialog
      title={title}
      description={description}
      trigger={
        <Button type="button" size="sm" variant="danger">
          Remove
        </Button>
      }
    >
      <Form method="POST" className="flex justify-end gap-2">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name={idName} value={id} />
        <ConfirmActions pending={pending} label="Remove" pendingText="Removing…" />
      </Form>
    </ConfirmDialog>
  )
}

function ProviderCard({
  provider,
  roles,
  serviceProvider,
}: {
  provider: Provider
  roles: Data['roles']
  serviceProvider?: Data['serviceProviders'][string]
}) {
  const [editing, setEditing] = useState(false)
  const role = roles.find((r) => r.value === provider.jitRole)?.label ?? provider.jitRole
  const saml = provider.kind === 'saml'
  const validTo = provider.samlCertificatesValidTo[0]
  return (
    <Subsection id={`provider-${provider.id}-title`} icon={KeyRound} title={provider.displayName}>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={provider.enabled ? 'green' : 'gray'}>
          {provider.enabled ? 'Enabled' : 'Disabled'}
        </Badge>
        <span className="text-sm text-gray-600 dark:text-gray-400">
          {saml ? 'SAML 2.0' : 'OpenID Connect'}
        </span>
      </div>
      <dl className="grid gap-1 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-4">
        {saml ? (
          <>
            <dt className="font-medium">IdP entity ID</dt>
            <dd className="break-all">{provider.samlEntityId}</dd>
            <dt className="font-medium">Sign-in URL</dt>
            <dd className="break-all">{provider.samlSsoUrl}</dd>
            <dt className="font-medium">Signing certificate</dt>
            <dd>
              {validTo
                ? `Valid until ${new Date(validTo).toUTCString().slice(5, 16)}`
                : 'Unreadable: save the provider again with fresh metadata'}
            </dd>
          </>
        ) : (
          <>
            <dt className="font-medium">Issuer</dt>
            <dd className="break-all">{provider.issuerUrl}</dd>
            <dt className="font-medium">Client ID</dt>
            <dd className="break-all">{provider.clientId}</dd>
          </>
        )}
        <dt className="font-medium">New accounts</dt>
        <dd>{role}</dd>
      </dl>
      {saml && serviceProvider ? <ServiceProviderValues values={serviceProvider} /> : null}
      {editing ? (
        saml ? (
          <SamlProviderForm provider={provider} roles={roles} onDone={() => setEditing(false)} />
        ) : (
          <ProviderForm provider={provider} roles={roles} onDone={() => setEditing(false)} />
        )
      ) : (
        <div className="flex flex-wrap gap-2">
          <ButtonForm
            intent="test-provider"
            idName="providerId"
            id={provider.id}
            label="Test connection"
            pendingText="Opening…"
            target="_blank"
          />
          <Button type="button" size="sm" variant="secondary" onClick={() => setEditing(true)}>
            Edit
          </Button>
          <RemoveButton
            intent="remove-provider"
            idName="providerId"
            id={provider.id}
            title={`Remove ${provider.displayName}?`}
            description="Its domains are released and nobody can sign in with it any more. Accounts it made stay, with their password sign-in where the domain allows it."
          />
        </div>
      )}
    </Subsection>
  )
}

function ClaimDomainForm({ providers }: { providers: Provider[] }) {
  const { lastResult, pending } = useReplyFor('claim-domain')
  const [form, fields] = useSchemaForm(SsoSettingsSchema, {
    id: 'claim-domain',
    lastResult,
    defaultValue: { intent: 'claim-domain', providerId: providers[0]?.id ?? '' } as never,
  })
  const f = fields as unknown as Record<string, ProviderField>
  return (
    <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
      {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      <input type="hidden" name="intent" value="claim-domain" />
      <FormField
        label="Email domain"
        field={f.domain as never}
        hint="The part after @ in your people's addresses, such as example.com."
        autoComplete="off"
      />
      <FormSelect label="Identity provider" field={f.providerId as never}>
        {providers.map((provider) => (
          <option key={provider.id} value={provider.id}>
            {provider.displayName}
          </option>
        ))}
      </FormSelect>
      <StatusButton pending={pending} pendingText="Claiming…" className="sm:self-start">
        Claim domain
      </StatusButton>
    </Form>
  )
}

function DomainRow({ domain, providers }: { domain: Domain; providers: Provider[] }) {
  const provider = providers.find((p) => p.id === domain.providerId)
  const verified = domain.status === 'verified'
  return (
    <Subsection id={`domain-${domain.id}-title`} icon={Globe} title={domain.domain}>
      <div className="flex flex-wrap items-center gap-2" role="status">
        <Badge tone={verified ? 'green' : 'amber'}>{verified ? 'Verified' : 'Pending'}</Badge>
        {domain.enforced ? <Badge tone="green">SSO required</Badge> : null}
        <span className="text-sm text-gray-600 dark:text-gray-400">
          {provider ? `Signs in with ${provider.displayName}` : null}
          {domain.checkedAt
            ? ` · last checked ${new Date(domain.checkedAt).toUTCString()}`
            : ' · not checked yet'}
        </span>
      </div>
      {verified ? null : (
        <div className="flex flex-col gap-1 text-sm">
          <p>Add this TXT record at your DNS provider, then press Verify:</p>
          <dl className="grid gap-1 rounded-md bg-gray-50 p-3 font-mono text-xs sm:grid-cols-[auto_1fr] sm:gap-x-4 dark:bg-gray-900">
            <dt className="font-sans font-medium">Name</dt>
            <dd className="break-all">{domain.txtName}</dd>
            <dt className="font-sans font-medium">Value</dt>
            <dd className="break-all">{domain.txtValue}</dd>
          </dl>
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        <ButtonForm
          intent="verify-domain"
          idName="domainId"
          id={domain.id}
          label={verified ? 'Check again' : 'Verify'}
          pendingText="Checking DNS…"
        />
        {verified ? (
          <ButtonForm
            intent="enforce-domain"
            idName="domainId"
            id={domain.id}
            label={domain.enforced ? 'Allow password sign-in' : 'Require SSO'}
            pendingText="Saving…"
            extra={{ enforced: domain.enforced ? 'off' : 'on' }}
          />
        ) : null}
        <RemoveButton
          intent="remove-domain"
          idName="domainId"
          id={domain.id}
          title={`Remove ${domain.domain}?`}
          description="Its addresses can no longer sign in with SSO here, and password sign-in is allowed again for them."
        />
      </div>
    </Subsection>
  )
}

/** The protocol first (OpenID Connect or SAML 2.0), then its form. */
function AddProvider({ roles }: { roles: Data['roles'] }) {
  const [protocol, setProtocol] = useState<'oidc' | 'saml'>('oidc')
  const name = useId()
  return (
    <div className="flex flex-col gap-4">
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">Protocol</legend>
        <div className="flex flex-wrap gap-4">
          {(
            [
              ['oidc', 'OpenID Connect'],
              ['saml', 'SAML 2.0'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={name}
                value={value}
                checked={protocol === value}
                onChange={() => setProtocol(value)}
                className="h-4 w-4 accent-brand"
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      {protocol === 'saml' ? <SamlProviderForm roles={roles} /> : <ProviderForm roles={roles} />}
    </div>
  )
}

export function SsoSettingsPage({
  providers,
  domains,
  redirectUris,
  roles,
  serviceProviders,
}: Data) {
  // A revalidation after a save (the lists are reloaded): the page says it is busy.
  const navigation = useNavigation()
  return (
    <main className="flex flex-col gap-6 p-4 sm:p-6" aria-busy={navigation.state === 'loading'}>
      <PageHeader
        title="Single Sign-On"
        description="Let your people sign in with your company's identity provider (Microsoft Entra ID, Okta, Google Workspace), and require it for your email domains."
        actions={null}
      />
      <Panel
        title="Identity providers"
        description="OpenID Connect: register this app at your identity provider as a web application with these redirect URIs, then paste its issuer URL, client ID and secret here. SAML 2.0: add the provider by its metadata, then copy the values it shows into your identity provider."
      >
        <div className="flex flex-col gap-1 text-sm">
          <p className="font-medium">Redirect URIs (OpenID Connect)</p>
          <ul className="flex flex-col gap-1 font-mono text-xs">
            {redirectUris.map((uri) => (
              <li key={uri} className="break-all rounded bg-gray-50 p-2 dark:bg-gray-900">
                {uri}
              </li>
            ))}
          </ul>
        </div>
        {providers.length === 0 ? (
          <EmptyState icon={ShieldCheck} title="No identity provider yet">
            Add your company's OpenID Connect or SAML 2.0 provider below. Nothing changes for anyone
            until you claim and verify an email domain for it.
          </EmptyState>
        ) : (
          // A saved edit changes updatedAt: the card starts again, closed, with the new values.
          providers.map((provider) => (
            <ProviderCard
              key={`${provider.id}-${provider.updatedAt}`}
              provider={provider}
              roles={roles}
              serviceProvider={serviceProviders[provider.id]}
            />
          ))
        )}
        <Subsection id="add-provider-title" title="Add an identity provider">
          {/* A provider added starts an empty form (the list's length changes). */}
          <AddProvider key={providers.length} roles={roles} />
        </Subsection>
      </Panel>
      <Panel
        title="Email domains"
        description="Claim the domains of your people's addresses and prove each one with a DNS TXT record. Once verified, those addresses can sign in with SSO; require it to turn their password sign-in off (agency admins keep theirs, for emergencies)."
      >
        {domains.length === 0 ? (
          <EmptyState icon={Globe} title="No email domain claimed">
            {providers.length === 0
              ? 'Add an identity provider first.'
              : 'Claim a domain below to let its addresses sign in with SSO.'}
          </EmptyState>
        ) : (
          domains.map((domain) => (
            <DomainRow key={domain.id} domain={domain} providers={providers} />
          ))
        )}
        {providers.length > 0 ? (
          <Subsection id="claim-domain-title" title="Claim an email domain">
            <ClaimDomainForm key={domains.length} providers={providers} />
          </Subsection>
        ) : null}
      </Panel>
    </main>
  )
}
