/**
 * The server the official conformance suite runs against: every tool, resource and prompt name
 * the suite requires, on one endpoint that serves 2026-07-28 and 2025-11-25.
 * Run: node --import tsx test/conformance/fixture-server.ts (PORT, HOST from the environment).
 */
import { createServer, type RequestContext } from '../../src/server/index.js';
import { serveHttp } from '../../src/transports/node.js';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const NO_ARGS = { type: 'object', additionalProperties: false };
const text = (t: string) => ({ type: 'text' as const, text: t });
const elicit = (message: string, properties: Record<string, unknown>, required: string[]) => ({
  method: 'elicitation/create' as const,
  params: { message, requestedSchema: { type: 'object', properties, required } },
});
const roots = { method: 'roots/list' as const, params: {} };
const sample = (prompt: string, maxTokens: number) => ({
  method: 'sampling/createMessage' as const,
  params: { messages: [{ role: 'user', content: text(prompt) }], maxTokens },
});

export function createFixture() {
  const server = createServer({ name: 'mcpkit-conformance-fixture', version: '1.0.0' });
  const tool = (
    name: string,
    description: string,
    run: (args: Record<string, unknown>, ctx: RequestContext) => unknown,
    input: Record<string, unknown> = NO_ARGS,
  ) => server.tool(name, { description, input }, run as never);

  tool(
    'test_simple_text',
    'Returns simple text',
    () => 'This is a simple text response for testing.',
  );
  tool('test_image_content', 'Returns an image', () => [
    { type: 'image', data: PNG, mimeType: 'image/png' },
  ]);
  tool('test_audio_content', 'Returns audio', () => [
    { type: 'audio', data: WAV, mimeType: 'audio/wav' },
  ]);
  tool('test_embedded_resource', 'Returns an embedded resource', () => [
    {
      type: 'resource',
      resource: {
        uri: 'test://embedded-resource',
        mimeType: 'text/plain',
        text: 'This is an embedded resource content.',
      },
    },
  ]);
  tool('test_multiple_content_types', 'Returns mixed content', () => [
    text('Multiple content types test:'),
    { type: 'image', data: PNG, mimeType: 'image/png' },
    {
      type: 'resource',
      resource: {
        uri: 'test://mixed-content-resource',
        mimeType: 'application/json',
        text: '{"test":"data","value":123}',
      },
    },
  ]);
  tool('test_error_handling', 'Always fails', () => ({
    content: [text('This tool intentionally returns an error for testing')],
    isError: true,
  }));
  tool('test_tool_with_progress', 'Reports progress', async (_a, ctx) => {
    for (const p of [0, 50, 100]) {
      ctx.progress(p, 100, `step ${p}`);
      if (p < 100) await sleep(50);
    }
    return 'Progress complete';
  });
  tool('test_tool_with_logging', 'Logs three messages', async (_a, ctx) => {
    for (const m of [
      'Tool execution started',
      'Tool processing data',
      'Tool execution completed',
    ]) {
      ctx.log('info', m);
      await sleep(20);
    }
    return 'Logging complete';
  });
  tool(
    'test_sampling',
    'Asks the client model',
    async (args, ctx) => {
      const { r } = await ctx.ask({ r: sample(String(args['prompt']), 100) });
      const content = r['content'] as { text?: string };
      return `LLM response: ${content?.text ?? JSON.stringify(content)}`;
    },
    { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
  );
  tool(
    'test_elicitation',
    'Asks the user',
    async (args, ctx) => {
      const { r } = await ctx.ask({
        r: elicit(
          String(args['message']),
          {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          ['username', 'email'],
        ),
      });
      return `User response: action=${String(r['action'])}, content=${JSON.stringify(r['content'] ?? {})}`;
    },
    { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  );
  tool('test_elicitation_sep1034_defaults', 'Elicitation with defaults', async (_a, ctx) => {
    const { r } = await ctx.ask({
      r: elicit(
        'Please review your information',
        {
          name: { type: 'string', default: 'John Doe' },
          age: { type: 'integer', default: 30 },
          score: { type: 'number', default: 95.5 },
          status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
          verified: { type: 'boolean', default: true },
        },
        [],
      ),
    });
    return `Elicitation completed: action=${String(r['action'])}, content=${JSON.stringify(r['content'] ?? {})}`;
  });
  tool('test_elicitation_sep1330_enums', 'Elicitation with enums', async (_a, ctx) => {
    const { r } = await ctx.ask({
      r: elicit(
        'Pick options',
        {
          untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          titledSingle: {
            type: 'string',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: {
            type: 'string',
            enum: ['opt1', 'opt2', 'opt3'],
            enumNames: ['Option One', 'Option Two', 'Option Three'],
          },
          untitledMulti: {
            type: 'array',
            minItems: 1,
            maxItems: 3,
            items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          },
          titledMulti: {
            type: 'array',
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        },
        [],
      ),
    });
    return `Elicitation completed: action=${String(r['action'])}, content=${JSON.stringify(r['content'] ?? {})}`;
  });
  // 2026-07-28 diagnostics.
  tool('test_missing_capability', 'Needs sampling', async (_a, ctx) => {
    ctx.requireCapability('sampling');
    return 'sampling is available';
  });
  tool('test_streaming_elicitation', 'Asks for confirmation', async (_a, ctx) => {
    await ctx.ask({ confirm: elicit('Please confirm', { ok: { type: 'boolean' } }, ['ok']) });
    return 'confirmed';
  });
  tool('test_logging_tool', 'Logs when asked to', (_a, ctx) => {
    ctx.log('info', 'logging tool ran');
    return 'logged';
  });
  tool('test_trigger_tool_change', 'Announces a tools list change', () => {
    server.notifyListChanged('tools');
    return 'tools list_changed sent';
  });
  tool('test_trigger_prompt_change', 'Announces a prompts list change', () => {
    server.notifyListChanged('prompts');
    return 'prompts list_changed sent';
  });
  // MRTR (SEP-2322).
  tool('test_input_required_result_elicitation', 'MRTR: elicitation', async (_a, ctx) => {
    const { user_name } = await ctx.ask({
      user_name: elicit('What is your name?', { name: { type: 'string' } }, ['name']),
    });
    return `Hello, ${String((user_name['content'] as Record<string, unknown> | undefined)?.['name'])}!`;
  });
  tool('test_input_required_result_sampling', 'MRTR: sampling', async (_a, ctx) => {
    const { capital_question } = await ctx.ask({
      capital_question: sample('What is the capital of France?', 100),
    });
    return `The model said: ${JSON.stringify(capital_question['content'])}`;
  });
  tool('test_input_required_result_list_roots', 'MRTR: roots', async (_a, ctx) => {
    const { client_roots } = await ctx.ask({ client_roots: roots });
    return `Roots: ${JSON.stringify(client_roots['roots'])}`;
  });
  tool('test_input_required_result_request_state', 'MRTR: request state', async (_a, ctx) => {
    ctx.state = { round: 1 };
    await ctx.ask({ confirm: elicit('Please confirm', { ok: { type: 'boolean' } }, ['ok']) });
    return `state-ok (${JSON.stringify(ctx.state)})`;
  });
  tool('test_input_required_result_multiple_inputs', 'MRTR: several inputs', async (_a, ctx) => {
    const r = await ctx.ask({
      user_name: elicit('What is your name?', { name: { type: 'string' } }, ['name']),
      greeting: sample('Generate a greeting', 50),
      client_roots: roots,
    });
    return `Got ${Object.keys(r).join(', ')}`;
  });
  tool('test_input_required_result_multi_round', 'MRTR: two rounds', async (_a, ctx) => {
    const { step1 } = await ctx.ask({
      step1: elicit('Step 1: What is your name?', { name: { type: 'string' } }, ['name']),
    });
    const { step2 } = await ctx.ask({
      step2: elicit('Step 2: What is your favorite color?', { color: { type: 'string' } }, [
        'color',
      ]),
    });
    return `Done: ${JSON.stringify(step1['content'])} ${JSON.stringify(step2['content'])}`;
  });
  tool('test_input_required_result_tampered_state', 'MRTR: signed state', async (_a, ctx) => {
    ctx.state = { signed: true };
    await ctx.ask({ confirm: elicit('Please confirm', { ok: { type: 'boolean' } }, ['ok']) });
    return 'state verified';
  });
  tool(
    'test_input_required_result_capabilities',
    'MRTR: only declared capabilities',
    async (_a, ctx) => {
      if (ctx.hasCapability('elicitation')) {
        await ctx.ask({
          user_name: elicit('What is your name?', { name: { type: 'string' } }, ['name']),
        });
      } else if (ctx.hasCapability('sampling')) {
        await ctx.ask({ greeting: sample('Generate a greeting', 50) });
      }
      return 'done';
    },
  );
  server.tool(
    'json_schema_2020_12_tool',
    {
      description: 'A JSON Schema 2020-12 input schema',
      input: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            $anchor: 'addressDef',
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        then: { required: ['phone'] },
        else: { required: ['email'] },
        additionalProperties: false,
      },
    },
    () => 'ok',
  );
  server.tool(
    'test_header_param',
    {
      description: 'Mirrors its region argument in the Mcp-Param-Region header',
      input: {
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
        required: ['region'],
      },
    },
    (args: { region: string }) => `region ${args.region}`,
  );

  server.resource(
    'test://static-text',
    { name: 'static-text', description: 'Static text', mimeType: 'text/plain' },
    () => 'This is the content of the static text resource.',
  );
  server.resource(
    'test://static-binary',
    { name: 'static-binary', description: 'A PNG', mimeType: 'image/png' },
    (uri) => ({ uri, blob: PNG }),
  );
  server.resource(
    'test://watched-resource',
    { name: 'watched-resource', description: 'Subscribable', mimeType: 'text/plain' },
    () => 'Watched resource content.',
  );
  server.resource(
    'test://template/{id}/data',
    { name: 'template', description: 'Data by id', mimeType: 'application/json' },
    (_uri, vars) =>
      JSON.stringify({
        id: vars['id'],
        templateTest: true,
        data: `Data for ID: ${String(vars['id'])}`,
      }),
  );

  server.prompt(
    'test_simple_prompt',
    { description: 'A simple prompt' },
    () => 'This is a simple prompt for testing.',
  );
  server.prompt(
    'test_prompt_with_arguments',
    {
      description: 'A prompt with arguments',
      arguments: [
        { name: 'arg1', description: 'First', required: true },
        { name: 'arg2', description: 'Second', required: true },
      ],
      complete: {
        arg1: (value) => ['testValue1', 'testValue2'].filter((v) => v.startsWith(value)),
      },
    },
    (args) => `Prompt with arguments: arg1='${args['arg1']}', arg2='${args['arg2']}'`,
  );
  server.prompt(
    'test_prompt_with_embedded_resource',
    {
      description: 'A prompt with an embedded resource',
      arguments: [{ name: 'resourceUri', description: 'The resource to embed', required: true }],
    },
    (args) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: String(args['resourceUri']),
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          },
        },
        { role: 'user', content: text('Please process the embedded resource above.') },
      ],
    }),
  );
  server.prompt('test_prompt_with_image', { description: 'A prompt with an image' }, () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: text('Please analyze the image above.') },
    ],
  }));
  server.prompt(
    'test_input_required_result_prompt',
    { description: 'MRTR in a prompt' },
    async (_a, ctx) => {
      const { user_context } = await ctx.ask({
        user_context: elicit(
          'What context should the prompt use?',
          { context: { type: 'string' } },
          ['context'],
        ),
      });
      return `Use this context: ${JSON.stringify(user_context['content'])}`;
    },
  );
  return server;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const running = await serveHttp(createFixture(), {
    host: process.env['HOST'] ?? '127.0.0.1',
    port: Number(process.env['PORT'] ?? 0),
  });
  console.log(`listening ${running.url}`);
  const stop = () => void running.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
