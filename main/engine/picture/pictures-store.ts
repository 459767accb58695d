import type { RequestPicture } from '../../../shared/request-picture/picture-schema';

/** Where request pictures are kept (request-pictures.ts), one per request. */
export interface PicturesStore {
  savePicture(requestId: string, picture: RequestPicture, at: number): void;
  getPicture(requestId: string): RequestPicture | undefined;
}
