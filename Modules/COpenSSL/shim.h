#include <openssl/opensslv.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/pem.h>
#include <openssl/bio.h>

// Function-like macros that Swift cannot import.
static inline long copenssl_set_tlsext_host_name(SSL *ssl, const char *name) {
  return SSL_set_tlsext_host_name(ssl, name);
}
static inline int copenssl_set_min_proto_version(SSL_CTX *ctx, int version) {
  return (int)SSL_CTX_set_min_proto_version(ctx, version);
}

// One-shot AES-256-GCM with a 12-byte nonce and a 16-byte tag, shared by every module that
// seals data (SecureStore, PushEnvelopeCrypto) so the EVP sequence exists once.
// Returns 1 on success, 0 on failure (for open: authentication failure or bad input).
static inline int copenssl_aes256gcm_seal(const unsigned char *key, const unsigned char *nonce,
                                          const unsigned char *aad, int aad_len,
                                          const unsigned char *plaintext, int plaintext_len,
                                          unsigned char *ciphertext, unsigned char *tag) {
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  int ok = 0, len = 0;
  if (ctx == NULL) return 0;
  if (EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, NULL, NULL) != 1) goto done;
  if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, 12, NULL) != 1) goto done;
  if (EVP_EncryptInit_ex(ctx, NULL, NULL, key, nonce) != 1) goto done;
  if (aad_len > 0 && EVP_EncryptUpdate(ctx, NULL, &len, aad, aad_len) != 1) goto done;
  if (plaintext_len > 0 &&
      EVP_EncryptUpdate(ctx, ciphertext, &len, plaintext, plaintext_len) != 1) goto done;
  if (EVP_EncryptFinal_ex(ctx, ciphertext + (plaintext_len > 0 ? len : 0), &len) != 1) goto done;
  if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag) != 1) goto done;
  ok = 1;
done:
  EVP_CIPHER_CTX_free(ctx);
  return ok;
}

static inline int copenssl_aes256gcm_open(const unsigned char *key, const unsigned char *nonce,
                                          const unsigned char *aad, int aad_len,
                                          const unsigned char *ciphertext, int ciphertext_len,
                                          const unsigned char *tag, unsigned char *plaintext) {
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  int ok = 0, len = 0;
  if (ctx == NULL) return 0;
  if (EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, NULL, NULL) != 1) goto done;
  if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, 12, NULL) != 1) goto done;
  if (EVP_DecryptInit_ex(ctx, NULL, NULL, key, nonce) != 1) goto done;
  if (aad_len > 0 && EVP_DecryptUpdate(ctx, NULL, &len, aad, aad_len) != 1) goto done;
  if (ciphertext_len > 0 &&
      EVP_DecryptUpdate(ctx, plaintext, &len, ciphertext, ciphertext_len) != 1) goto done;
  if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, (void *)tag) != 1) goto done;
  if (EVP_DecryptFinal_ex(ctx, plaintext + (ciphertext_len > 0 ? len : 0), &len) != 1) goto done;
  ok = 1;
done:
  EVP_CIPHER_CTX_free(ctx);
  return ok;
}
