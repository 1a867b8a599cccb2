import { Complete, Injectable, Param, Prompt, Resource, ResourceTemplate, embeddedResource, image, userMessage } from 'mcp-reflect';
import { TINY_PNG } from './media';

/** The resources, template, prompts and completion of the MCP conformance suite. */
@Injectable()
export class EverythingResources {
  @Resource('test://static-text', { name: 'static-text', description: 'A static text resource', mimeType: 'text/plain' })
  staticText(): string {
    return 'This is the content of the static text resource.';
  }

  @Resource('test://static-binary', { name: 'static-binary', description: 'A static binary resource', mimeType: 'image/png' })
  staticBinary(): Uint8Array {
    return TINY_PNG;
  }

  @Resource('test://watched-resource', { name: 'watched-resource', description: 'A resource clients can subscribe to' })
  watched(): string {
    return 'Watched resource content';
  }

  @ResourceTemplate('test://template/{id}/data', {
    name: 'template',
    description: 'A resource template with an id variable',
    mimeType: 'application/json',
  })
  templated(@Param('id') id: string): object {
    return { id, templateTest: true, data: `Data for ID: ${id}` };
  }

  @Prompt({ description: 'A simple prompt without arguments' })
  test_simple_prompt(): string {
    return 'This is a simple prompt for testing.';
  }

  @Prompt({ description: 'A prompt with two required arguments' })
  test_prompt_with_arguments(
    @Param('arg1', { description: 'First test argument' }) arg1: string,
    @Param('arg2', { description: 'Second test argument' }) arg2: string,
  ): string {
    return `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`;
  }

  @Complete({ prompt: 'test_prompt_with_arguments', argument: 'arg1' })
  completeArg1(value: string): string[] {
    return ['test1', 'test2', 'testing'].filter((v) => v.startsWith(value));
  }

  @Prompt({ description: 'A prompt that embeds a resource' })
  test_prompt_with_embedded_resource(@Param('resourceUri', { description: 'URI of the resource to embed' }) resourceUri: string) {
    return [
      userMessage(embeddedResource(resourceUri, 'Embedded resource content for testing.', 'text/plain')),
      userMessage('Please process the embedded resource above.'),
    ];
  }

  @Prompt({ description: 'A prompt with an image' })
  test_prompt_with_image() {
    return [userMessage(image(TINY_PNG, 'image/png')), userMessage('Please analyze the image above.')];
  }
}
