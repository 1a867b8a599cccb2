import path from 'node:path';
import { McpModule, Module } from 'mcp-reflect';
import { EverythingResources } from './everything.resources';
import { EverythingNextTools } from './everything.next';
import { EverythingTasks } from './everything.tasks';
import { EverythingTools } from './everything.tools';

@Module({
  imports: [
    McpModule.forRoot({
      name: 'mcp-reflect-everything',
      version: '1.0.0',
      instructions: 'Every MCP conformance scenario.',
      // The json-schema-2020-12 scenario checks that a tool's $defs and $ref reach the client as written: this server
      // opts in to advertising references (by default they are inlined, docs/composition.md#schemas-without-ref).
      schemaRefs: 'keep',
      // Skills (SEP-2640, docs/skills.md): a folder of skill folders, and a skill built in code.
      skills: [
        { directory: path.join(__dirname, 'skills') },
        {
          skills: {
            'release-notes': {
              'SKILL.md': '---\nname: release-notes\ndescription: Write the release notes of a version from its changelog.\n---\n\nRead CHANGELOG.md; group the changes as Added, Changed, Fixed.\n',
            },
          },
        },
      ],
    }),
  ],
  providers: [EverythingTools, EverythingResources, EverythingNextTools, EverythingTasks],
})
export class EverythingModule {}
