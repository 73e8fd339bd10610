import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as z from 'zod/mini';
import {
  AppConversationPageSchema,
  AppConversationSchema,
  AppConversationStartTaskPageSchema,
  AppConversationStartTaskSchema,
  CatalogueModelPageSchema,
  CatalogueProviderPageSchema,
  EXECUTION_STATUSES,
  ExposedUrlSchema,
  McpConfigSchema,
  ModelSettingsReplySchema,
  ProfileDetailSchema,
  ProfileListSchema,
  ProfileMutationSchema,
  PROVIDER_TYPES,
  SANDBOX_STATUSES,
  SandboxInfoSchema,
  SandboxPageSchema,
  SandboxSpecInfoSchema,
  SandboxSpecPageSchema,
  SettingsSchema,
  START_TASK_STATUSES,
} from '../../../src/api';
import { SampleBuilder, type OpenApiDocument, type Sample } from './openapiSamples';
import { FIXTURES } from '../../shared/repository';

// Published documents, copied into the repository (test/fixtures/openapi/README.md says from where).
const referenceDir = join(FIXTURES, 'openapi');
const load = (file: string) => JSON.parse(readFileSync(join(referenceDir, file), 'utf8')) as OpenApiDocument;

const cloud = new SampleBuilder(load('openhands-cloud-v1.json'));
const v0 = new SampleBuilder(load('openhands-v0.json'));

/** How the Cloud document names the LLM profile replies (the org routes have their own). */
const SETTINGS_ROUTER = 'openhands__app_server__settings__settings_router__';

interface Case {
  doc: SampleBuilder;
  name: string;
  zod: z.ZodMiniType;
  /** Fields we need although the document gives them a default (pydantic always emits them). */
  alwaysEmitted?: string[];
}

const cases: Case[] = [
  { doc: cloud, name: 'SandboxInfo', zod: SandboxInfoSchema },
  { doc: cloud, name: 'SandboxPage', zod: SandboxPageSchema },
  { doc: cloud, name: 'ExposedUrl', zod: ExposedUrlSchema },
  { doc: cloud, name: 'SandboxSpecInfo', zod: SandboxSpecInfoSchema },
  { doc: cloud, name: 'SandboxSpecInfoPage', zod: SandboxSpecPageSchema },
  { doc: cloud, name: 'AppConversation', zod: AppConversationSchema, alwaysEmitted: ['id'] },
  { doc: cloud, name: 'AppConversationPage', zod: AppConversationPageSchema },
  {
    doc: cloud,
    name: 'AppConversationStartTask',
    zod: AppConversationStartTaskSchema,
    alwaysEmitted: ['id'],
  },
  { doc: cloud, name: 'AppConversationStartTaskPage', zod: AppConversationStartTaskPageSchema },
  { doc: v0, name: 'GETSettingsModel', zod: SettingsSchema },
  { doc: cloud, name: 'GETSettingsModel', zod: ModelSettingsReplySchema },
  { doc: cloud, name: 'LLMModelPage', zod: CatalogueModelPageSchema },
  { doc: cloud, name: 'ProviderPage', zod: CatalogueProviderPageSchema },
  { doc: cloud, name: `${SETTINGS_ROUTER}ProfileListResponse`, zod: ProfileListSchema },
  { doc: cloud, name: `${SETTINGS_ROUTER}ProfileDetailResponse`, zod: ProfileDetailSchema },
  { doc: cloud, name: `${SETTINGS_ROUTER}ProfileMutationResponse`, zod: ProfileMutationSchema },
  { doc: cloud, name: `${SETTINGS_ROUTER}ActivateProfileResponse`, zod: ProfileMutationSchema },
  { doc: v0, name: 'MCPConfig', zod: McpConfigSchema },
];

function assertParses(zod: z.ZodMiniType, sample: Sample, what: string): void {
  const result = zod.safeParse(sample);
  assert.ok(
    result.success,
    `${what} was rejected: ${result.success ? '' : JSON.stringify(result.error.issues)}`,
  );
}

describe('zod schemas against the published OpenAPI documents', () => {
  for (const { doc, name, zod, alwaysEmitted = [] } of cases) {
    describe(name, () => {
      it('accepts a reply with every documented field', () => {
        assertParses(zod, doc.full(doc.schema(name)), `a full ${name}`);
      });

      it('accepts a reply with only the required fields', () => {
        const minimal = doc.requiredOnly(doc.schema(name)) as Record<string, Sample>;
        const full = doc.full(doc.schema(name)) as Record<string, Sample>;
        for (const field of alwaysEmitted) minimal[field] = full[field] ?? null;
        assertParses(zod, minimal, `a minimal ${name}`);
      });

      it('accepts every enum value the document lists', () => {
        const full = doc.full(doc.schema(name)) as Record<string, Sample>;
        for (const [field, value] of doc.enumValues(doc.schema(name))) {
          assertParses(zod, { ...full, [field]: value }, `${name}.${field} = ${value}`);
        }
      });

      it('keeps fields a newer server adds', () => {
        const full = doc.full(doc.schema(name)) as Record<string, Sample>;
        const parsed = zod.parse({ ...full, field_from_the_future: 42 }) as Record<string, unknown>;
        assert.equal(parsed.field_from_the_future, 42);
      });
    });
  }

  it('rejects a sandbox without an id or status (a reply we could not act on)', () => {
    const full = cloud.full(cloud.schema('SandboxInfo')) as Record<string, Sample>;
    const { id: _id, ...withoutId } = full;
    const { status: _status, ...withoutStatus } = full;
    assert.equal(SandboxInfoSchema.safeParse(withoutId).success, false);
    assert.equal(SandboxInfoSchema.safeParse(withoutStatus).success, false);
  });

  describe('our known enum lists cover the documents', () => {
    const enumOf = (doc: SampleBuilder, name: string) => (doc.schema(name).enum ?? []).map(String);
    const pairs: [string, readonly string[]][] = [
      ['SandboxStatus', SANDBOX_STATUSES],
      ['AppConversationStartTaskStatus', START_TASK_STATUSES],
      ['ConversationExecutionStatus', EXECUTION_STATUSES],
      ['ProviderType', PROVIDER_TYPES],
    ];
    for (const [name, known] of pairs) {
      it(name, () => {
        const documented = enumOf(cloud, name);
        assert.ok(documented.length > 0, `${name} has no enum in the document`);
        assert.deepEqual(
          documented.filter((value) => !known.includes(value)),
          [],
          `${name} values missing from our list`,
        );
      });
    }
  });
});
