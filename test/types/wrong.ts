// Must NOT compile: a misspelled option, a wrong type, a missing field.
import * as s3blitz from 's3blitz';

async function wrong(): Promise<void> {
  await s3blitz.copy({ sourc: 's3://a', target: 's3://b' });
  await s3blitz.rm({ source: 's3://b/x', maxDelete: { n: 1 } });
  const r = await s3blitz.compare({ source: 'a', target: 'b' });
  const n: string = r.judgedBySize;
  void n;
}
void wrong;
