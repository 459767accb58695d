import { describe, expect, it } from 'vitest';
import {
  MAX_BODY_CHARS,
  messageKindOf,
  messagePreviewOf,
} from '../../../../shared/request-picture/message-preview';

describe('message preview', () => {
  it('knows which actions and MCP tools talk to people', () => {
    expect(messageKindOf('send_email')).toBe('email');
    expect(messageKindOf('mcp__gmail__send_email')).toBe('email');
    expect(messageKindOf('mcp:slack:chat_post_message')).toBe('chat');
    expect(messageKindOf('post_message')).toBe('chat');
    expect(messageKindOf('mcp__github__add_issue_comment')).toBe('comment');
    expect(messageKindOf('create_comment')).toBe('comment');
    expect(messageKindOf('mcp__github__create_issue')).toBe('issue');
    for (const quiet of ['Bash', 'Write', 'Edit', 'read_file', 'git_push', 'mcp__fs__read'])
      expect(messageKindOf(quiet), quiet).toBeUndefined();
  });

  it('shows recipients, subject and body of an email, secrets masked', () => {
    expect(
      messagePreviewOf('mcp__gmail__send_email', {
        to: ['ceo@example.com', { name: 'Bo', email: 'bo@example.com' }],
        cc: 'a@example.com, b@example.com',
        subject: 'Quarterly numbers',
        body: 'Hi,\nthe key is sk-ant-abcdefghijklmnopqrstuvwxyz\n',
      }),
    ).toEqual({
      kind: 'email',
      to: ['ceo@example.com', 'Bo <bo@example.com>'],
      cc: ['a@example.com', 'b@example.com'],
      subject: 'Quarterly numbers',
      body: 'Hi,\nthe key is sk-a…[masked]\n',
    });
  });

  it('shows where a chat post or comment goes, and cuts a long body saying so', () => {
    expect(messagePreviewOf('post_message', { channel: '#ops', text: 'deploying' })).toEqual({
      kind: 'chat',
      channel: '#ops',
      body: 'deploying',
    });
    const long = messagePreviewOf('mcp__github__add_issue_comment', {
      owner: 'acme',
      repo: 'pay',
      issue_number: 42,
      body: 'x'.repeat(MAX_BODY_CHARS + 10),
    });
    expect(long).toMatchObject({ kind: 'comment', channel: 'acme/pay#42' });
    expect(long!.body).toHaveLength(MAX_BODY_CHARS);
    expect(long!.omitted).toBe('the body is cut: 10 more characters');
  });

  it('shows nothing for a message action whose input names none of its parts', () => {
    expect(messagePreviewOf('send_email', { priority: 'high' })).toBeUndefined();
  });
});
